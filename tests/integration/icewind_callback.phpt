--TEST--
Integration: Nextcloud's shape: sabre/dav 4.7.0 + sabre/http 5.1.12 serving a file behind icewind/streams 0.7.7's CallbackWrapper via nginx + PHP-FPM, stock vs fastcopy.override
--SKIPIF--
<?php require __DIR__ . '/harness.inc'; fcint_skipif(['nginx', 'fpm', 'curl', 'dav']); ?>
--FILE--
<?php
require __DIR__ . '/nginx_fpm.inc';

$blob = fcint_blob();
$size = $blob['size'];
$tmp = fcint_tmpdir('icewind');
$servers = fcfpm_stacks(fcint_dav_docroot($tmp, $blob), $tmp, ['ini' => fclib_ini()]);
$closeLog = "$tmp/logs/icewind-close.log";
$url = 'dav.php/blob.bin?wrap=icewind';

/* The wrapper's close callback must fire once per request, after its read
 * callbacks have seen at least what was sent (Nextcloud unlocks the file and
 * finishes its bookkeeping there). */
function close_log_check(string $log, string $label, int $atLeast, int $n): void
{
    $lines = is_file($log) ? file($log, FILE_IGNORE_NEW_LINES) : [];
    @unlink($log);
    if (count($lines) !== $n) {
        fcint_fail("$label: close callback ran " . count($lines) . " times, want $n");
        return;
    }
    foreach ($lines as $l) {
        $read = json_decode($l, true)['read'] ?? -1;
        if ($read < $atLeast) {
            fcint_fail("$label: read callbacks saw $read bytes, less than the $atLeast sent");
        }
    }
}

$n = count($servers);
// A user-space wrapper has no descriptor: the engine reads it in large blocks
// on its 'buffered' path, so any path counts as served here.
fchttp_compare($servers, 'full GET', $url, [], ['status' => 200, 'bytes' => $size,
    'sha256' => $blob['sha256'], 'engine' => $size]);
close_log_check($closeLog, 'full GET', $size, $n);
fchttp_compare($servers, 'range 1000003-2000000', $url, ['Range: bytes=1000003-2000000'],
    ['engine' => 2000000 - 1000003 + 1] + fchttp_expect_range($blob, 1000003, 2000000));
close_log_check($closeLog, 'range 1000003-2000000', 2000000 - 1000003 + 1, $n);
fchttp_compare($servers, 'suffix range -1234567', $url, ['Range: bytes=-1234567'],
    ['engine' => 1234567] + fchttp_expect_range($blob, $size - 1234567, $size - 1));
close_log_check($closeLog, 'suffix range -1234567', 1234567, $n);
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
full GET: ok
range 1000003-2000000: ok
suffix range -1234567: ok
done
