--TEST--
Integration: readfile()/fpassthru()/stream_copy_to_stream() under PHP's built-in web server (php -S), stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/harness.inc'; fcint_skipif(['curl']);
?>
--FILE--
<?php
require __DIR__ . '/builtin_server.inc';

$blob = fcint_blob();
$odd = fcint_data_file(FCINT_ODD_SIZE);
$tmp = fcint_tmpdir('php-s');
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['blob' => $blob['path'], 'odd' => $odd['path']]]);
$servers = fcint_per_mode(fn (string $mode) => new FcbuiltinServer($mode, $docroot, $tmp));
foreach (['readfile', 'fpassthru', 'scts'] as $fn) {
    fchttp_compare($servers, "$fn 300 MiB", "send.php?fn=$fn", [], ['status' => 200, 'bytes' => $blob['size'],
        'sha256' => $blob['sha256'], 'headers' => ['Content-Length' => (string) $blob['size']], 'fast' => $blob['size']]);
    // No Content-Length: the server closes the connection to end the body.
    fchttp_compare($servers, "$fn odd size, no Content-Length", "send.php?fn=$fn&file=odd&cl=0", [],
        ['status' => 200, 'bytes' => $odd['size'], 'sha256' => $odd['sha256'], 'fast' => $odd['size']]);
}
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
readfile 300 MiB: ok
readfile odd size, no Content-Length: ok
fpassthru 300 MiB: ok
fpassthru odd size, no Content-Length: ok
scts 300 MiB: ok
scts odd size, no Content-Length: ok
done
