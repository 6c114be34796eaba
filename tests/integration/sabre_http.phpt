--TEST--
Integration: sabre/http Sapi::sendResponse() of a 300 MiB file via nginx + PHP-FPM, stock vs fastcopy.override
--SKIPIF--
<?php require __DIR__ . '/harness.inc'; fcint_skipif(['nginx', 'fpm', 'curl']); ?>
--FILE--
<?php
require __DIR__ . '/harness.inc';

$blob = fcint_blob();
$size = $blob['size'];
$tmp = fcint_tmpdir('sabre');
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['blob' => $blob['path']]]);
$servers = [];
foreach (fcint_modes() as $mode) {
    $servers[$mode] = new FcintStack($mode, $docroot, $tmp);
}

fcint_compare($servers, 'full GET', 'sabre.php', [], ['status' => 200, 'bytes' => $size,
    'sha256' => $blob['sha256'], 'headers' => ['Content-Length' => (string) $size], 'fast' => $size]);
// Unaligned start: the first copy ends on a page boundary, the rest in 4 MiB pieces.
fcint_compare($servers, 'range 1000003-2000000', 'sabre.php', ['Range: bytes=1000003-2000000'],
    fcint_expect_range($blob, 1000003, 2000000, 2000000 - 1000003 + 1));
fcint_compare($servers, 'suffix range -1234567', 'sabre.php', ['Range: bytes=-1234567'],
    fcint_expect_range($blob, $size - 1234567, $size - 1, 1234567));
fcint_compare($servers, 'open range from 299999999', 'sabre.php', ['Range: bytes=299999999-'],
    fcint_expect_range($blob, 299999999, $size - 1, $size - 299999999));
fcint_compare($servers, 'last byte', 'sabre.php', ['Range: bytes=' . ($size - 1) . '-'],
    fcint_expect_range($blob, $size - 1, $size - 1));
fcint_compare($servers, 'unsatisfiable range', 'sabre.php', ['Range: bytes=' . $size . '-'],
    ['status' => 416, 'bytes' => 0]);
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
full GET: ok
range 1000003-2000000: ok
suffix range -1234567: ok
open range from 299999999: ok
last byte: ok
unsatisfiable range: ok
done
