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
require __DIR__ . '/fastcgi.inc';

$odd = fcint_data_file(FCINT_ODD_SIZE);
$blob = fcint_blob();
$empty = fcint_tmpdir('fcgi-empty') . '/empty.bin';
touch($empty);
$tmp = fcint_tmpdir('fcgi-unix');
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['odd' => $odd['path'], 'blob' => $blob['path'], 'empty' => $empty]]);
$servers = fcint_stacks($docroot, $tmp, ['keepalive' => 2]);
$size = $odd['size'];
$whole = fcfc_expect_slice($odd, 0, $size);

foreach (['readfile', 'fpassthru', 'scts'] as $fn) {
    fcfc_download($servers, "$fn", ['fn' => $fn], $whole, $size, 'fastcgi');
}
fcfc_download($servers, 'readfile of 300 MiB', ['fn' => 'readfile', 'file' => 'blob'],
    ['status' => 200, 'bytes' => $blob['size'], 'sha256' => $blob['sha256']], $blob['size'], 'fastcgi');

// Ranges as a range request asks for them: an unaligned start, a suffix, the last byte.
foreach ([[4099, 1 << 20], [$size - 70000, 70000], [$size - 1, 1], [12345, null]] as [$off, $len]) {
    $n = $len ?? $size - $off;
    fcfc_download($servers, "stream_copy_to_stream offset $off length " . json_encode($len),
        ['fn' => 'scts', 'off' => $off] + ($len === null ? [] : ['len' => $len]), fcfc_expect_slice($odd, $off, $n), $n,
        'fastcgi');
}
fcfc_download($servers, 'fpassthru after fseek(8191)', ['fn' => 'fpassthru', 'seek' => 8191],
    fcfc_expect_slice($odd, 8191, $size - 8191), $size - 8191, 'fastcgi');

// Output before and after, in order, and the request ended early.
fcfc_download($servers, 'output before and after', ['fn' => 'readfile', 'pre' => 'BEFORE', 'post' => 'AFTER'],
    fcfc_expect_slice($odd, 0, $size, 'BEFORE', 'AFTER'), $size, 'fastcgi');
fcfc_download($servers, 'fastcgi_finish_request() after the copy', ['fn' => 'fpassthru', 'post' => 'END', 'finish' => 1],
    fcfc_expect_slice($odd, 0, $size, '', 'END'), $size, 'fastcgi');
fcfc_download($servers, 'a plain chunked buffer on top', ['fn' => 'scts', 'ob' => 'chunked', 'pre' => 'x'],
    fcfc_expect_slice($odd, 0, $size, 'x'), $size, 'fastcgi');

// What must see the bytes keeps the copy in the output layer.
$rot = hash('sha256', str_rot13(file_get_contents($odd['path'])));
fcfc_download($servers, 'an ob_start() callback', ['fn' => 'readfile', 'ob' => 'rot13'],
    ['status' => 200, 'bytes' => $size, 'sha256' => $rot], $size, 'OUTPUT_HANDLER');
fcfc_download($servers, 'an ob_start() buffer without a chunk size', ['fn' => 'fpassthru', 'ob' => 'unchunked'],
    $whole, $size, 'OUTPUT_HANDLER');
// The compressed bytes depend on the size of each write into the layer, which
// is larger with the override (docs/differences.md): compare what they decode to.
fcfc_download($servers, 'zlib.output_compression', ['fn' => 'scts', 'zlib' => 1],
    ['status' => 200, 'headers' => ['Content-Encoding' => 'gzip'], 'decoded' => $odd['sha256']], $size,
    'OUTPUT_HANDLER', ['Accept-Encoding: gzip']);
fcfc_download($servers, 'fastcopy.disable=fastcgi', ['fn' => 'readfile', 'disable' => 'fastcgi'], $whole, $size,
    'none');

// No body to send: HEAD turns output off once the headers are out.
fcfc_download($servers, 'HEAD', ['fn' => 'readfile'], ['status' => 200, 'bytes' => 0], $size, 'OUTPUT_DISABLED',
    ['method' => 'HEAD']);
fcfc_download($servers, 'a 0-byte file', ['fn' => 'readfile', 'file' => 'empty'], ['status' => 200, 'bytes' => 0], 0,
    'none');

// Every answer above rode the same kept-alive FastCGI connection; one more after them all.
fcfc_download($servers, 'readfile again on the kept connection', ['fn' => 'readfile'], $whole, $size, 'fastcgi');
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
