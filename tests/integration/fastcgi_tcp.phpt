--TEST--
Integration: the fastcgi path on a TCP pool with pm=ondemand, pm.max_requests and output_buffering=0 (every worker proves the request layout afresh); stock vs fastcopy.override
--SKIPIF--
<?php require __DIR__ . '/harness.inc'; fcint_skipif(['nginx', 'fpm', 'curl']); ?>
--FILE--
<?php
require __DIR__ . '/nginx_fpm.inc';

$odd = fcint_data_file(FCINT_ODD_SIZE);
$tmp = fcint_tmpdir('fcgi-tcp');
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['odd' => $odd['path']]]);
$servers = fcfpm_stacks($docroot, $tmp, ['listen' => 'tcp', 'keepalive' => 2, 'ini' => ['output_buffering=0'],
    'pool' => ['pm = ondemand', 'pm.max_requests = 2', 'pm.process_idle_timeout = 60s']]);
$size = $odd['size'];
$whole = fchttp_expect_slice($odd, 0, $size);

$pids = [];
foreach (['readfile', 'fpassthru', 'scts', 'readfile', 'fpassthru', 'scts'] as $i => $fn) {
    fchttp_download('fastcgi', $servers, "$fn #$i", ['fn' => $fn], $whole, $size, 'fastcgi');
}
fchttp_download('fastcgi', $servers, 'stream_copy_to_stream offset 1 length 65529', ['fn' => 'scts', 'off' => 1, 'len' => 65529],
    fchttp_expect_slice($odd, 1, 65529), 65529, 'fastcgi');
fchttp_download('fastcgi', $servers, 'output before and after', ['fn' => 'scts', 'pre' => 'head', 'post' => 'tail'],
    fchttp_expect_slice($odd, 0, $size, 'head', 'tail'), $size, 'fastcgi');
fchttp_download('fastcgi', $servers, 'fastcgi_finish_request() after the copy', ['fn' => 'readfile', 'finish' => 1],
    $whole, $size, 'fastcgi');
fchttp_download('fastcgi', $servers, 'HEAD', ['fn' => 'readfile'], ['status' => 200, 'bytes' => 0], $size, 'OUTPUT_DISABLED',
    ['method' => 'HEAD']);
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
readfile #0: ok
fpassthru #1: ok
scts #2: ok
readfile #3: ok
fpassthru #4: ok
scts #5: ok
stream_copy_to_stream offset 1 length 65529: ok
output before and after: ok
fastcgi_finish_request() after the copy: ok
HEAD: ok
done
