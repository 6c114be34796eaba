--TEST--
Integration: Nextcloud's wrapping (icewind/streams 0.7.7's CallbackWrapper with only a close callback, ignore_user_abort on) in front of sabre/dav 4.7.0 via nginx + PHP-FPM: the fastcgi path carries the wrapped downloads, stock vs fastcopy.override
--DESCRIPTION--
OC\Files\View::fopen() wraps every file in a CallbackWrapper whose close callback
unlocks it. The engine sees through such a wrapper: the whole file, ranges, a HEAD,
an empty file and several downloads on kept FastCGI connections must be stock's byte
for byte, the worker's counters must show the fastcgi path carrying the wrapped
bodies, and the close callback must run exactly once per request, also when the
client hangs up.
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/harness.inc'; fcint_skipif(['nginx', 'fpm', 'curl', 'dav']);
?>
--FILE--
<?php
require __DIR__ . '/nginx_fpm.inc';

$blob = fcint_blob();
$size = $blob['size'];
$tmp = fcint_tmpdir('nextcloud');
$docroot = fcint_dav_docroot($tmp, $blob);
touch("$tmp/dav/empty.bin");
// for the repeated downloads: 5 MiB and 3 bytes (record and page boundaries off)
$small = fcint_data_file((5 << 20) + 3);
symlink($small['path'], "$tmp/dav/small.bin");
$servers = fcfpm_stacks($docroot, $tmp, ['ini' => fclib_ini(), 'keepalive' => 2]);
$closeLog = "$tmp/logs/nextcloud-close.log";
$url = 'dav.php/blob.bin?wrap=nextcloud';

/** The close callback ran once per request of each mode since the last look
 * ($requests: how often that must be, or a list of the counts allowed). */
function closes_check(string $log, string $label, int|array $requests): void
{
    $n = is_file($log) ? count(file($log, FILE_IGNORE_NEW_LINES)) : 0;
    @unlink($log);
    if (!in_array($n, (array) $requests, true)) {
        fcint_fail("$label: the close callback ran $n times, want " . implode(' or ', (array) $requests));
    }
}

$n = count($servers);
$whole = ['status' => 200, 'bytes' => $size, 'sha256' => $blob['sha256'], 'path' => ['fastcgi', $size],
    'wrapped' => true];
fchttp_compare($servers, 'full GET', $url, [], $whole);
closes_check($closeLog, 'full GET', $n);
foreach ([[1000003, 2000000], [$size - 1234567, $size - 1], [0, 65527]] as [$a, $b]) {
    $range = $b === $size - 1 ? '-' . ($size - $a) : "$a-$b";
    fchttp_compare($servers, "range $range", $url, ["Range: bytes=$range"],
        ['path' => ['fastcgi', $b - $a + 1], 'wrapped' => true] + fchttp_expect_range($blob, $a, $b));
    closes_check($closeLog, "range $range", $n);
}
// One byte: the byte that sends the headers is all there is (no path needed).
fchttp_compare($servers, 'last byte', $url, ['Range: bytes=' . ($size - 1) . '-'],
    ['engine' => 1] + fchttp_expect_range($blob, $size - 1, $size - 1));
closes_check($closeLog, 'last byte', $n);
// sabre answers HEAD without sending the body; whatever it does with the
// file, it does the same in both modes.
fchttp_compare($servers, 'HEAD', $url, ['method' => 'HEAD'], ['status' => 200, 'bytes' => 0]);
closes_check($closeLog, 'HEAD', [0, $n]);
fchttp_compare($servers, 'empty file', 'dav.php/empty.bin?wrap=nextcloud', [], ['status' => 200, 'bytes' => 0,
    'sha256' => hash('sha256', '')]);
closes_check($closeLog, 'empty file', $n);
// Three more on the FastCGI connections nginx keeps (keepalive 2).
$smallUrl = 'dav.php/small.bin?wrap=nextcloud';
for ($i = 1; $i <= 3; $i++) {
    fchttp_compare($servers, "kept connection, download $i", $smallUrl, [], ['status' => 200,
        'bytes' => $small['size'], 'sha256' => $small['sha256'], 'path' => ['fastcgi', $small['size']], 'wrapped' => true]);
}
closes_check($closeLog, 'kept connection', 3 * $n);

// The client hangs up after 1 MiB: View's ignore_user_abort(true) keeps the
// script going, sabre's loop stops after the piece that failed, the file is
// unlocked once, and the worker serves the next download whole.
$before = $GLOBALS['fcint_failures'];
foreach ($servers as $mode => $srv) {
    $label = "hang-up [$mode]";
    $pid0 = fchttp_get_json($srv->url('stats.php'))['pid'] ?? 0;
    $log = "hangup-$mode.log";
    $c = fchttp_get_and_hang_up($srv->url("$url&log=$log"), 1 << 20);
    if (!str_contains($c['status_line'], ' 200 ') || $c['body'] < (1 << 20)) {
        fcint_fail("$label: client saw " . json_encode($c));
    }
    $got = fcint_wait_log("$tmp/logs/$log");
    $want = ['send_returned' => true, 'closed' => true, 'connection_aborted' => 1];
    if ($got === null || array_intersect_key($got, $want) !== $want) {
        fcint_fail("$label: script saw " . json_encode($got) . ', stock PHP sees ' . json_encode($want));
    }
    if ((fchttp_get_json($srv->url('stats.php'))['pid'] ?? -1) !== $pid0) {
        fcint_fail("$label: the worker changed (it died?)");
    }
}
closes_check($closeLog, 'hang-up', $n);
if ($GLOBALS['fcint_failures'] === $before) {
    echo "hang-up with ignore_user_abort(true): ok\n";
}
fchttp_compare($servers, 'GET after the hang-up', $smallUrl, [], ['status' => 200, 'bytes' => $small['size'],
    'sha256' => $small['sha256'], 'path' => ['fastcgi', $small['size']], 'wrapped' => true]);
closes_check($closeLog, 'GET after the hang-up', $n);

// fastcopy.disable=wrappers: the same bytes, read through the wrapper as before.
$off = fcfpm_stacks($docroot, $tmp, ['ini' => array_merge(fclib_ini(), ['fastcopy.disable=wrappers'])]);
fchttp_compare($off, 'fastcopy.disable=wrappers', $smallUrl, [], ['status' => 200, 'bytes' => $small['size'],
    'sha256' => $small['sha256'], 'engine' => $small['size']]);
closes_check($closeLog, 'fastcopy.disable=wrappers', count($off));
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
full GET: ok
range 1000003-2000000: ok
range -1234567: ok
range 0-65527: ok
last byte: ok
HEAD: ok
empty file: ok
kept connection, download 1: ok
kept connection, download 2: ok
kept connection, download 3: ok
hang-up with ignore_user_abort(true): ok
GET after the hang-up: ok
override: %r(on|unavailable \(.*\))%r
fastcopy.disable=wrappers: ok
done
