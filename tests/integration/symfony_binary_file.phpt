--TEST--
Integration: Symfony BinaryFileResponse via nginx + PHP-FPM, stock vs fastcopy.override
--SKIPIF--
<?php require __DIR__ . '/harness.inc'; fcint_skipif(['nginx', 'fpm', 'curl', 'dav']); ?>
--FILE--
<?php
require __DIR__ . '/nginx_fpm.inc';

$blob = fcint_blob();
$size = $blob['size'];
$tmp = fcint_tmpdir('symfony-bin');
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['blob' => $blob['path']]]);
$servers = fcfpm_stacks($docroot, $tmp);
// Symfony 7 copies with fread()/fwrite() itself, so no fast-path assertion here:
// only "nothing changes" (bytes, headers, Range handling).
fchttp_compare($servers, 'full GET', 'symfony_binary.php', [], ['status' => 200, 'bytes' => $size,
    'sha256' => $blob['sha256'], 'headers' => ['Content-Length' => (string) $size]]);
fchttp_compare($servers, 'range 1000003-2000000', 'symfony_binary.php', ['Range: bytes=1000003-2000000'],
    fchttp_expect_range($blob, 1000003, 2000000));
fchttp_compare($servers, 'suffix range -1234567', 'symfony_binary.php', ['Range: bytes=-1234567'],
    fchttp_expect_range($blob, $size - 1234567, $size - 1));
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
full GET: ok
range 1000003-2000000: ok
suffix range -1234567: ok
done
