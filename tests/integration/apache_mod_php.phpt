--TEST--
Integration: the apache path under Apache 2.4 prefork + mod_php (Debian's), output_buffering=4096: the built-ins, ranges, output around the copy, what keeps the output layer (handlers, HEAD, small responses), sabre/http and sabre/dav, downloads on one kept-alive connection; stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/apache.inc'; fcap_skipif(['dav', 'http7']);
?>
--FILE--
<?php
require __DIR__ . '/apache.inc';

$odd = fcint_data_file(FCINT_ODD_SIZE);
$blob = fcint_blob();
$small = fcint_data_file(7000);
$mid = fcint_data_file(40000);
$empty = fcint_tmpdir('ap-empty') . '/empty.bin';
touch($empty);
chmod(dirname($empty), 0755);
$tmp = fcint_tmpdir('ap-mod-php');
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['odd' => $odd['path'], 'blob' => $blob['path'],
    'empty' => $empty, 'small' => $small['path'], 'mid' => $mid['path']]]);
$servers = fcap_servers($docroot, $tmp);
$size = $odd['size'];
$whole = fchttp_expect_slice($odd, 0, $size);

foreach (['readfile', 'fpassthru', 'scts'] as $fn) {
    fchttp_download('apache', $servers, $fn, ['fn' => $fn], $whole, $size, 'apache');
}
fchttp_download('apache', $servers, 'readfile of 300 MiB', ['fn' => 'readfile', 'file' => 'blob'],
    ['status' => 200, 'bytes' => $blob['size'], 'sha256' => $blob['sha256']], $blob['size'], 'apache');

// Ranges as a range request asks for them: an unaligned start, a suffix, the last byte.
foreach ([[4099, 1 << 20], [$size - 700000, 700000], [$size - 1, 1], [12345, null]] as [$off, $len]) {
    $n = $len ?? $size - $off;
    fchttp_download('apache', $servers, "stream_copy_to_stream offset $off length " . json_encode($len),
        ['fn' => 'scts', 'off' => $off] + ($len === null ? [] : ['len' => $len]), fchttp_expect_slice($odd, $off, $n), $n,
        // one byte settles the headers through the output layer, the path is not asked
        $n === 1 ? 'none' : ($n < 65536 ? 'SMALL_RESPONSE' : 'apache'));
}
// sabre/http's shape: the file in 1 MiB copies; the path keeps one descriptor for them all.
fchttp_download('apache', $servers, 'stream_copy_to_stream in 1 MiB pieces of 300 MiB', ['fn' => 'pieces', 'piece' => 1 << 20,
    'file' => 'blob', 'fds' => 1], ['status' => 200, 'bytes' => $blob['size'], 'sha256' => $blob['sha256']],
    $blob['size'], 'apache');
fchttp_download('apache', $servers, 'fpassthru after fseek(8191)', ['fn' => 'fpassthru', 'seek' => 8191],
    fchttp_expect_slice($odd, 8191, $size - 8191), $size - 8191, 'apache');

// Output before and after, in order.
fchttp_download('apache', $servers, 'output before and after', ['fn' => 'readfile', 'pre' => 'BEFORE', 'post' => 'AFTER'],
    fchttp_expect_slice($odd, 0, $size, 'BEFORE', 'AFTER'), $size, 'apache');
fchttp_download('apache', $servers, 'a plain chunked buffer on top', ['fn' => 'scts', 'ob' => 'chunked', 'pre' => 'x'],
    fchttp_expect_slice($odd, 0, $size, 'x'), $size, 'apache');

// What must see the bytes keeps the copy in the output layer.
$rot = hash('sha256', str_rot13(file_get_contents($odd['path'])));
fchttp_download('apache', $servers, 'an ob_start() callback', ['fn' => 'readfile', 'ob' => 'rot13'],
    ['status' => 200, 'bytes' => $size, 'sha256' => $rot], $size, 'OUTPUT_HANDLER');
fchttp_download('apache', $servers, 'an ob_start() buffer without a chunk size', ['fn' => 'fpassthru', 'ob' => 'unchunked'],
    $whole, $size, 'OUTPUT_HANDLER');
// Compressed bytes depend on the size of each write into the layer (docs/differences.md).
fchttp_download('apache', $servers, 'zlib.output_compression', ['fn' => 'scts', 'zlib' => 1],
    ['status' => 200, 'headers' => ['Content-Encoding' => 'gzip'], 'decoded' => $odd['sha256']], $size,
    'OUTPUT_HANDLER', ['Accept-Encoding: gzip']);
fchttp_download('apache', $servers, 'fastcopy.disable=apache', ['fn' => 'readfile', 'disable' => 'apache'], $whole, $size,
    'none');

// HEAD: mod_php runs the script and Apache drops the body.
fchttp_download('apache', $servers, 'HEAD', ['fn' => 'readfile'], ['status' => 200, 'bytes' => 0], $size, 'HEAD',
    ['method' => 'HEAD']);
fchttp_download('apache', $servers, 'a 0-byte file', ['fn' => 'readfile', 'file' => 'empty'], ['status' => 200, 'bytes' => 0], 0,
    'none');

// Small responses: Apache sees them whole, sets Content-Length and answers Range itself.
foreach (['small' => $small, 'mid' => $mid] as $name => $f) {
    fchttp_download('apache', $servers, "$name file ({$f['size']} bytes)", ['fn' => 'readfile', 'file' => $name],
        ['status' => 200, 'bytes' => $f['size'], 'sha256' => $f['sha256']], $f['size'], 'SMALL_RESPONSE');
    fchttp_download('apache', $servers, "$name file, Range: bytes=100-199", ['fn' => 'readfile', 'file' => $name],
        [], $f['size'], 'SMALL_RESPONSE', ['Range: bytes=100-199']);
}
// A script that ignores Range, for a large file: the whole file, 200, as stock.
fchttp_download('apache', $servers, 'large file, Range ignored by the script', ['fn' => 'readfile'], $whole, $size, 'apache',
    ['Range: bytes=100-199']);

// sabre/http's Sapi::sendResponse(), 5.1.12 and 7.1.0: its own 206s and Content-Length.
$bsize = $blob['size'];
foreach (['5.1.12' => 5, '7.1.0' => 7] as $version => $major) {
    $url = "sabre.php?http=$major";
    fcap_compare($servers, "sabre/http $version full GET", $url, [], ['status' => 200, 'bytes' => $bsize,
        'sha256' => $blob['sha256'], 'headers' => ['Content-Length' => (string) $bsize]], $bsize);
    fcap_compare($servers, "sabre/http $version bytes 1000003-2000000", "$url&start=1000003&end=2000000", [],
        fchttp_expect_range($blob, 1000003, 2000000), 2000000 - 1000003 + 1 - 4096);
    fcap_compare($servers, "sabre/http $version last byte", "$url&start=" . ($bsize - 1) . '&end=' . ($bsize - 1), [],
        fchttp_expect_range($blob, $bsize - 1, $bsize - 1), null);
}

// Several downloads on one kept-alive connection (curl reuses it for every URL), all
// three on the path in override mode.
foreach ($servers as $mode => $srv) {
    $s0 = fchttp_get_json($srv->url('stats.php'));
    $urls = [];
    foreach (['readfile', 'fpassthru', 'scts'] as $fn) {
        $urls[] = $srv->url("download.php?fn=$fn");
    }
    $out = fcint_run([fcint_tool('curl'), '-sS', '--http1.1', '-w', '%{num_connects} %{size_download}\n',
        '-o', '/dev/null', '-o', '/dev/null', '-o', '/dev/null', ...$urls]);
    $lines = array_map('trim', explode("\n", trim($out['stdout'])));
    $want = ["1 $size", "0 $size", "0 $size"];
    if ($lines !== $want) {
        fcint_fail("keep-alive [$mode]: " . json_encode($lines) . ', want ' . json_encode($want));
    }
    $d = fc_stats_delta($s0['stats'] ?? null, fchttp_get_json($srv->url('stats.php'))['stats'] ?? null);
    if ($mode === 'override' && ($d === null || $d['apache']['bytes'] < 3 * ($size - 1))) {
        fcint_fail('keep-alive [override]: the apache path counted ' . json_encode($d['apache'] ?? null));
    }
}
echo "three downloads on one connection: done\n";
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
readfile: ok
fpassthru: ok
scts: ok
readfile of 300 MiB: ok
stream_copy_to_stream offset 4099 length 1048576: ok
stream_copy_to_stream offset %d length 700000: ok
stream_copy_to_stream offset %d length 1: ok
stream_copy_to_stream offset 12345 length null: ok
stream_copy_to_stream in 1 MiB pieces of 300 MiB: ok
fpassthru after fseek(8191): ok
output before and after: ok
a plain chunked buffer on top: ok
an ob_start() callback: ok
an ob_start() buffer without a chunk size: ok
zlib.output_compression: ok
fastcopy.disable=apache: ok
HEAD: ok
a 0-byte file: ok
small file (7000 bytes): ok
small file, Range: bytes=100-199: ok
mid file (40000 bytes): ok
mid file, Range: bytes=100-199: ok
large file, Range ignored by the script: ok
sabre/http 5.1.12 full GET: ok
sabre/http 5.1.12 bytes 1000003-2000000: ok
sabre/http 5.1.12 last byte: ok
sabre/http 7.1.0 full GET: ok
sabre/http 7.1.0 bytes 1000003-2000000: ok
sabre/http 7.1.0 last byte: ok
three downloads on one connection: done
done
