--TEST--
Integration: the fastcgi path under valgrind: PHP-FPM (master and worker) run in memcheck, stock and fastcopy.override alike, through small downloads, a kept-alive FastCGI connection and client hang-ups; the answers are stock's, then no memory error and no leak that stock PHP-FPM does not have
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/harness.inc';
if (getenv('FCINT_VALGRIND') === '0') {
    die('skip FCINT_VALGRIND=0');
}
// run-tests.php -m runs this test's own PHP in valgrind, which follows it into
// the servers it starts and cannot run a second valgrind there.
if (getenv('USE_ZEND_ALLOC') === '0' && getenv('ZEND_DONT_UNLOAD_MODULES') === '1') {
    die('skip already under valgrind (run-tests.php -m)');
}
fcint_skipif(['nginx', 'fpm', 'curl', 'valgrind']);
?>
--FILE--
<?php
require __DIR__ . '/nginx_fpm.inc';

// The CLI's valgrind runs (run-tests.php -m) never reach the fastcgi path: it
// runs in FPM's worker only. Small files, as valgrind slows every PHP-side step.
$odd = fcint_data_file(FCINT_ODD_SIZE);
// Larger than what the sockets and nginx hold between the worker and a client
// that reads 1 MiB and hangs up, so the worker is still writing when it does.
$big = fcint_data_file(32 << 20);
$tmp = fcint_tmpdir('fcgi-vg');
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['odd' => $odd['path'], 'blob' => $big['path']]]);
$servers = fcfpm_stacks($docroot, $tmp, ['keepalive' => 2, 'valgrind' => true]);
$size = $odd['size'];
$whole = fchttp_expect_slice($odd, 0, $size);

fchttp_download('fastcgi', $servers, 'readfile', ['fn' => 'readfile'], $whole, $size, 'fastcgi');
fchttp_download('fastcgi', $servers, 'stream_copy_to_stream offset 4099 length 1048576', ['fn' => 'scts', 'off' => 4099,
    'len' => 1 << 20], fchttp_expect_slice($odd, 4099, 1 << 20), 1 << 20, 'fastcgi');
fchttp_download('fastcgi', $servers, 'fpassthru after fseek(8191)', ['fn' => 'fpassthru', 'seek' => 8191],
    fchttp_expect_slice($odd, 8191, $size - 8191), $size - 8191, 'fastcgi');
fchttp_download('fastcgi', $servers, 'output before and after', ['fn' => 'readfile', 'pre' => 'BEFORE', 'post' => 'AFTER'],
    fchttp_expect_slice($odd, 0, $size, 'BEFORE', 'AFTER'), $size, 'fastcgi');
fchttp_download('fastcgi', $servers, 'a plain chunked buffer on top', ['fn' => 'scts', 'ob' => 'chunked', 'pre' => 'x'],
    fchttp_expect_slice($odd, 0, $size, 'x'), $size, 'fastcgi');
fchttp_download('fastcgi', $servers, 'fastcgi_finish_request() after the copy', ['fn' => 'fpassthru', 'post' => 'END',
    'finish' => 1], fchttp_expect_slice($odd, 0, $size, '', 'END'), $size, 'fastcgi');
// Where the path declines and leaves the bytes to the output layer.
fchttp_download('fastcgi', $servers, 'an ob_start() callback', ['fn' => 'readfile', 'ob' => 'rot13'],
    ['status' => 200, 'bytes' => $size, 'sha256' => hash('sha256', str_rot13(file_get_contents($odd['path'])))],
    $size, 'OUTPUT_HANDLER');
fchttp_download('fastcgi', $servers, 'HEAD', ['fn' => 'readfile'], ['status' => 200, 'bytes' => 0], $size, 'OUTPUT_DISABLED',
    ['method' => 'HEAD']);
fchttp_download('fastcgi', $servers, 'readfile again on the kept connection', ['fn' => 'readfile'], $whole, $size, 'fastcgi');

// The client goes away mid-copy: the path's write into the FastCGI socket
// fails. What the script sees after that (return value, connection_aborted(),
// whether it ran on) is stock's. With ignore_user_abort(false) the script ends
// inside the copy, before the engine counts its bytes; with true the path
// hands the rest over with the socket's errno.
foreach (['readfile' => 0, 'scts' => 1] as $fn => $ignore) {
    $label = "client hangs up during $fn, ignore_user_abort=$ignore";
    $before = $GLOBALS['fcint_failures'];
    $seen = [];
    foreach ($servers as $mode => $srv) {
        $log = "abort-$fn-$mode.log";
        $s0 = fchttp_get_json($srv->url('stats.php'));
        $c = fchttp_get_and_hang_up($srv->url("abort.php?fn=$fn&ignore=$ignore&log=$log"), 1 << 20);
        $seen[$mode] = fcint_wait_log("$tmp/logs/$log");
        if ($mode !== 'stock') {
            $s1 = fchttp_get_json($srv->url('stats.php'));
            $d = fc_stats_delta($s0['stats'], $s1['stats'])['fastcgi'];
            if ($d['calls'] !== 1 || $d['bytes'] < (1 << 20) || ($ignore && $d['fallbacks'] === [])) {
                fcint_fail("$label [$mode]: the fastcgi path was tried {$d['calls']} time(s): " . json_encode($d));
            }
        }
        if (!str_contains($c['status_line'], ' 200 ') || ($seen[$mode]['connection_aborted'] ?? null) !== 1) {
            fcint_fail("$label [$mode]: the client saw " . json_encode($c) . ', the script ' . json_encode($seen[$mode]));
        } elseif ($mode !== 'stock' && $seen[$mode] !== $seen['stock']) {
            fcint_fail("$label [$mode]: the script saw " . json_encode($seen[$mode]) . ', stock '
                . json_encode($seen['stock']));
        }
    }
    if ($GLOBALS['fcint_failures'] === $before) {
        echo "$label: ok\n";
    }
}
fchttp_download('fastcgi', $servers, 'readfile after the hang-ups', ['fn' => 'readfile'], $whole, $size, 'fastcgi');

fcfpm_valgrind_check($servers);
fcint_done();
?>
--EXPECT--
override: on
readfile: ok
stream_copy_to_stream offset 4099 length 1048576: ok
fpassthru after fseek(8191): ok
output before and after: ok
a plain chunked buffer on top: ok
fastcgi_finish_request() after the copy: ok
an ob_start() callback: ok
HEAD: ok
readfile again on the kept connection: ok
client hangs up during readfile, ignore_user_abort=0: ok
client hangs up during scts, ignore_user_abort=1: ok
readfile after the hang-ups: ok
valgrind: ok
done
