--TEST--
Integration: sabre/http 5.1.12 and 7.1.0 Sapi::sendResponse() of a 300 MiB file via nginx + PHP-FPM, stock vs fastcopy.override
--SKIPIF--
<?php require __DIR__ . '/harness.inc'; fcint_skipif(['nginx', 'fpm', 'curl', 'dav', 'http7']); ?>
--FILE--
<?php
require __DIR__ . '/nginx_fpm.inc';

$blob = fcint_blob();
$size = $blob['size'];
$tmp = fcint_tmpdir('sabre');
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['blob' => $blob['path']]]);
$servers = fcfpm_stacks($docroot, $tmp, ['ini' => fclib_ini()]);

foreach (['5.1.12' => 5, '7.1.0' => 7] as $version => $major) {
    $url = "sabre.php?http=$major";
    fchttp_compare($servers, "$version full GET", $url, [], ['status' => 200, 'bytes' => $size,
        'sha256' => $blob['sha256'], 'headers' => ['Content-Length' => (string) $size], 'fast' => $size]);
    // Unaligned start: the first copy ends on a page boundary, the rest in 4 MiB pieces.
    fchttp_compare($servers, "$version bytes 1000003-2000000", "$url&start=1000003&end=2000000", [],
        fchttp_expect_range($blob, 1000003, 2000000, 2000000 - 1000003 + 1));
    fchttp_compare($servers, "$version last byte", "$url&start=" . ($size - 1) . '&end=' . ($size - 1), [],
        fchttp_expect_range($blob, $size - 1, $size - 1));
}
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
5.1.12 full GET: ok
5.1.12 bytes 1000003-2000000: ok
5.1.12 last byte: ok
7.1.0 full GET: ok
7.1.0 bytes 1000003-2000000: ok
7.1.0 last byte: ok
done
