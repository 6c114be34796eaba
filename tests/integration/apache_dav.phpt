--TEST--
Integration: a sabre/dav 4.7.0 server (sabre/http 5.1.12) under Apache + mod_php: GET of 300 MiB, Range, HEAD, PROPFIND, and the same GET with every file behind icewind/streams' CallbackWrapper (with a read callback, and as Nextcloud wraps it); stock vs fastcopy.override, the apache path carrying the plain and the Nextcloud-wrapped downloads
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/apache.inc';
if (!extension_loaded('dom') && !is_file(PHP_EXTENSION_DIR . '/dom.so')) {
    die('skip sabre/dav needs ext/dom, which this PHP lacks');
}
fcap_skipif(['dav']);
?>
--FILE--
<?php
require __DIR__ . '/apache.inc';

$blob = fcint_blob();
$size = $blob['size'];
$tmp = fcint_tmpdir('ap-dav');
$servers = fcap_servers(fcint_dav_docroot($tmp, $blob), $tmp);
$url = 'dav.php/blob.bin';

$fileHeaders = ['Content-Type' => 'application/octet-stream',
    'Last-Modified' => gmdate('D, d M Y H:i:s \G\M\T', filemtime($blob['path']))];
fcap_compare($servers, 'full GET', $url, [], ['status' => 200, 'bytes' => $size, 'sha256' => $blob['sha256'],
    'headers' => $fileHeaders + ['Content-Length' => (string) $size]], $size);
// Unaligned start: sendResponse() copies up to a page boundary, then in 4 MiB pieces.
fcap_compare($servers, 'range 1000003-2000000', $url, ['Range: bytes=1000003-2000000'],
    fchttp_expect_range($blob, 1000003, 2000000), 2000000 - 1000003 + 1 - 4096);
fcap_compare($servers, 'suffix range -1234567', $url, ['Range: bytes=-1234567'],
    fchttp_expect_range($blob, $size - 1234567, $size - 1), 1234567 - 4096);
fcap_compare($servers, 'last byte', $url, ['Range: bytes=' . ($size - 1) . '-'],
    fchttp_expect_range($blob, $size - 1, $size - 1), null);
fcap_compare($servers, 'unsatisfiable range', $url, ['Range: bytes=' . $size . '-'], ['status' => 416], null);
fcap_compare($servers, 'HEAD', $url, ['method' => 'HEAD'], ['status' => 200, 'bytes' => 0,
    'headers' => $fileHeaders + ['Content-Length' => (string) $size]], null);
fcap_compare($servers, 'PROPFIND Depth 1', 'dav.php/', ['method' => 'PROPFIND', 'Depth: 1',
    'Content-Type: application/xml', 'data' => '<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop>'
    . '<d:getcontentlength/><d:getetag/><d:resourcetype/></d:prop></d:propfind>'], ['status' => 207], null);
// Behind a CallbackWrapper with a read callback the wrapper must see every byte:
// the bytes and headers must be stock's, whichever path carried them.
fcap_compare($servers, 'icewind CallbackWrapper: full GET', "$url?wrap=icewind", [], ['status' => 200,
    'bytes' => $size, 'sha256' => $blob['sha256'], 'headers' => ['Content-Length' => (string) $size]], null);
fcap_compare($servers, 'icewind CallbackWrapper: range 1000003-2000000', "$url?wrap=icewind",
    ['Range: bytes=1000003-2000000'], fchttp_expect_range($blob, 1000003, 2000000), null);
// Nextcloud's wrapping (close callback only) is seen through: the apache path
// carries the file under it.
fcap_compare($servers, 'Nextcloud wrapping: full GET', "$url?wrap=nextcloud", [], ['status' => 200,
    'bytes' => $size, 'sha256' => $blob['sha256'], 'headers' => ['Content-Length' => (string) $size]], $size);
fcap_compare($servers, 'Nextcloud wrapping: range 1000003-2000000', "$url?wrap=nextcloud",
    ['Range: bytes=1000003-2000000'], fchttp_expect_range($blob, 1000003, 2000000), 2000000 - 1000003 + 1 - 4096);
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
full GET: ok
range 1000003-2000000: ok
suffix range -1234567: ok
last byte: ok
unsatisfiable range: ok
HEAD: ok
PROPFIND Depth 1: ok
icewind CallbackWrapper: full GET: ok
icewind CallbackWrapper: range 1000003-2000000: ok
Nextcloud wrapping: full GET: ok
Nextcloud wrapping: range 1000003-2000000: ok
done
