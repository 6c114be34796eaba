--TEST--
Integration: a sabre/dav 4.7.0 server (sabre/http 5.1.12) over an FS\Directory via nginx + PHP-FPM: GET of 300 MiB, Range, HEAD, ETag 304, PROPFIND, stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/harness.inc';
// sabre/dav answers PROPFIND and errors in XML through ext/dom. Debian's PHP has it
// (setup.sh installs php8.2-xml); CI's own PHP 8.4 build (.ci/php84) leaves it out.
if (!extension_loaded('dom') && !is_file(PHP_EXTENSION_DIR . '/dom.so')) {
    die('skip sabre/dav needs ext/dom, which this PHP lacks');
}
fcint_skipif(['nginx', 'fpm', 'curl', 'dav']);
?>
--FILE--
<?php
require __DIR__ . '/nginx_fpm.inc';

$blob = fcint_blob();
$size = $blob['size'];
$tmp = fcint_tmpdir('dav');
$servers = fcfpm_stacks(fcint_dav_docroot($tmp, $blob), $tmp, ['ini' => fclib_ini()]);
$url = 'dav.php/blob.bin';

// Last-Modified is the file's mtime, as sabre/dav's FS\Node reports it; ETag,
// also from the file, must merely be the same on both servers (fchttp_same).
$fileHeaders = ['Content-Type' => 'application/octet-stream',
    'Last-Modified' => gmdate('D, d M Y H:i:s \G\M\T', filemtime($blob['path']))];
$full = fchttp_compare($servers, 'full GET', $url, [], ['status' => 200, 'bytes' => $size,
    'sha256' => $blob['sha256'], 'headers' => $fileHeaders + ['Content-Length' => (string) $size], 'fast' => $size]);
// Unaligned start: sendResponse() copies up to a page boundary, then in 4 MiB pieces.
fchttp_compare($servers, 'range 1000003-2000000', $url, ['Range: bytes=1000003-2000000'],
    fchttp_expect_range($blob, 1000003, 2000000, 2000000 - 1000003 + 1));
fchttp_compare($servers, 'suffix range -1234567', $url, ['Range: bytes=-1234567'],
    fchttp_expect_range($blob, $size - 1234567, $size - 1, 1234567));
fchttp_compare($servers, 'open range from 299999999', $url, ['Range: bytes=299999999-'],
    fchttp_expect_range($blob, 299999999, $size - 1, $size - 299999999));
fchttp_compare($servers, 'last byte', $url, ['Range: bytes=' . ($size - 1) . '-'],
    fchttp_expect_range($blob, $size - 1, $size - 1));
// sabre/dav 4.7 answers a single range only; a multi-range request gets the whole file.
fchttp_compare($servers, 'two ranges: whole file', $url, ['Range: bytes=0-99,200-299'], ['status' => 200,
    'bytes' => $size, 'sha256' => $blob['sha256'], 'fast' => $size]);
// The 416 body is sabre's XML error document, the same on both.
fchttp_compare($servers, 'unsatisfiable range', $url, ['Range: bytes=' . $size . '-'], ['status' => 416]);
fchttp_compare($servers, 'HEAD', $url, ['method' => 'HEAD'], ['status' => 200, 'bytes' => 0,
    'headers' => $fileHeaders + ['Content-Length' => (string) $size]]);
$etag = fchttp_header($full['stock'], 'ETag');
if ($etag === null || !preg_match('/^"[0-9a-f]{40}"$/', $etag)) {
    fcint_fail('full GET: no ETag from sabre/dav: ' . json_encode($etag));
}
fchttp_compare($servers, 'If-None-Match: 304', $url, ["If-None-Match: $etag"], ['status' => 304, 'bytes' => 0,
    'headers' => ['ETag' => $etag]]);

// PROPFIND names its properties: an allprop answer would carry FS\Directory's
// quota-available-bytes, the filesystem's free space, which other processes
// change between the two servers' answers.
$propfind = fchttp_compare($servers, 'PROPFIND Depth 1', 'dav.php/', ['method' => 'PROPFIND', 'Depth: 1',
    'Content-Type: application/xml', 'data' => '<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop>'
    . '<d:getcontentlength/><d:getetag/><d:getlastmodified/><d:resourcetype/></d:prop></d:propfind>'],
    ['status' => 207, 'headers' => ['Content-Type' => 'application/xml; charset=utf-8']]);
foreach (['<d:href>/dav.php/</d:href>', '<d:href>/dav.php/blob.bin</d:href>',
    "<d:getcontentlength>$size</d:getcontentlength>",
    "<d:getetag>" . htmlspecialchars($etag, ENT_XML1 | ENT_QUOTES) . "</d:getetag>", '<d:collection/>'] as $want) {
    if (!str_contains($propfind['stock']['head'], $want)) {
        fcint_fail("PROPFIND: the listing lacks $want:\n" . $propfind['stock']['head']);
    }
}
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
full GET: ok
range 1000003-2000000: ok
suffix range -1234567: ok
open range from 299999999: ok
last byte: ok
two ranges: whole file: ok
unsatisfiable range: ok
HEAD: ok
If-None-Match: 304: ok
PROPFIND Depth 1: ok
done
