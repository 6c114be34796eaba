--TEST--
Integration: the fastcgi path on a unix-socket pool (Debian's default) with output_buffering=4096 and a kept-alive FastCGI connection: what it serves and where it must leave the copy to the output layer; stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/harness.inc'; fcint_skipif(['nginx', 'fpm', 'curl']);
?>
--FILE--
<?php
require __DIR__ . '/nginx_fpm.inc';

$odd = fcint_data_file(FCINT_ODD_SIZE);
$blob = fcint_blob();
$empty = fcint_tmpdir('fcgi-empty') . '/empty.bin';
touch($empty);
$tmp = fcint_tmpdir('fcgi-unix');
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['odd' => $odd['path'], 'blob' => $blob['path'], 'empty' => $empty]]);
$servers = fcfpm_stacks($docroot, $tmp, ['keepalive' => 2]);
$size = $odd['size'];
$whole = fchttp_expect_slice($odd, 0, $size);

foreach (['readfile', 'fpassthru', 'scts'] as $fn) {
    fchttp_download('fastcgi', $servers, "$fn", ['fn' => $fn], $whole, $size, 'fastcgi');
}
fchttp_download('fastcgi', $servers, 'readfile of 300 MiB', ['fn' => 'readfile', 'file' => 'blob'],
    ['status' => 200, 'bytes' => $blob['size'], 'sha256' => $blob['sha256']], $blob['size'], 'fastcgi');

// Ranges as a range request asks for them: an unaligned start, a suffix, the last byte.
foreach ([[4099, 1 << 20], [$size - 70000, 70000], [$size - 1, 1], [12345, null]] as [$off, $len]) {
    $n = $len ?? $size - $off;
    fchttp_download('fastcgi', $servers, "stream_copy_to_stream offset $off length " . json_encode($len),
        ['fn' => 'scts', 'off' => $off] + ($len === null ? [] : ['len' => $len]), fchttp_expect_slice($odd, $off, $n), $n,
        'fastcgi');
}
fchttp_download('fastcgi', $servers, 'fpassthru after fseek(8191)', ['fn' => 'fpassthru', 'seek' => 8191],
    fchttp_expect_slice($odd, 8191, $size - 8191), $size - 8191, 'fastcgi');

// Output before and after, in order, and the request ended early.
fchttp_download('fastcgi', $servers, 'output before and after', ['fn' => 'readfile', 'pre' => 'BEFORE', 'post' => 'AFTER'],
    fchttp_expect_slice($odd, 0, $size, 'BEFORE', 'AFTER'), $size, 'fastcgi');
fchttp_download('fastcgi', $servers, 'fastcgi_finish_request() after the copy', ['fn' => 'fpassthru', 'post' => 'END', 'finish' => 1],
    fchttp_expect_slice($odd, 0, $size, '', 'END'), $size, 'fastcgi');
fchttp_download('fastcgi', $servers, 'a plain chunked buffer on top', ['fn' => 'scts', 'ob' => 'chunked', 'pre' => 'x'],
    fchttp_expect_slice($odd, 0, $size, 'x'), $size, 'fastcgi');

// What must see the bytes keeps the copy in the output layer.
$rot = hash('sha256', str_rot13(file_get_contents($odd['path'])));
fchttp_download('fastcgi', $servers, 'an ob_start() callback', ['fn' => 'readfile', 'ob' => 'rot13'],
    ['status' => 200, 'bytes' => $size, 'sha256' => $rot], $size, 'OUTPUT_HANDLER');
fchttp_download('fastcgi', $servers, 'an ob_start() buffer without a chunk size', ['fn' => 'fpassthru', 'ob' => 'unchunked'],
    $whole, $size, 'OUTPUT_HANDLER');
// The compressed bytes depend on the size of each write into the layer, which
// is larger with the override (docs/differences.md): compare what they decode to.
fchttp_download('fastcgi', $servers, 'zlib.output_compression', ['fn' => 'scts', 'zlib' => 1],
    ['status' => 200, 'headers' => ['Content-Encoding' => 'gzip'], 'decoded' => $odd['sha256']], $size,
    'OUTPUT_HANDLER', ['Accept-Encoding: gzip']);
fchttp_download('fastcgi', $servers, 'fastcopy.disable=fastcgi', ['fn' => 'readfile', 'disable' => 'fastcgi'], $whole, $size,
    'none');

// No body to send: HEAD turns output off once the headers are out.
fchttp_download('fastcgi', $servers, 'HEAD', ['fn' => 'readfile'], ['status' => 200, 'bytes' => 0], $size, 'OUTPUT_DISABLED',
    ['method' => 'HEAD']);
fchttp_download('fastcgi', $servers, 'a 0-byte file', ['fn' => 'readfile', 'file' => 'empty'], ['status' => 200, 'bytes' => 0], 0,
    'none');

// Every answer above rode the same kept-alive FastCGI connection; one more after them all.
fchttp_download('fastcgi', $servers, 'readfile again on the kept connection', ['fn' => 'readfile'], $whole, $size, 'fastcgi');
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
readfile: ok
fpassthru: ok
scts: ok
readfile of 300 MiB: ok
stream_copy_to_stream offset 4099 length 1048576: ok
stream_copy_to_stream offset %d length 70000: ok
stream_copy_to_stream offset %d length 1: ok
stream_copy_to_stream offset 12345 length null: ok
fpassthru after fseek(8191): ok
output before and after: ok
fastcgi_finish_request() after the copy: ok
a plain chunked buffer on top: ok
an ob_start() callback: ok
an ob_start() buffer without a chunk size: ok
zlib.output_compression: ok
fastcopy.disable=fastcgi: ok
HEAD: ok
a 0-byte file: ok
readfile again on the kept connection: ok
done
