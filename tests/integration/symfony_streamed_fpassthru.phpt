--TEST--
Integration: Laravel-style StreamedResponse calling fpassthru() via nginx + PHP-FPM, stock vs fastcopy.override
--SKIPIF--
<?php require __DIR__ . '/harness.inc'; fcint_skipif(['nginx', 'fpm', 'curl', 'dav']); ?>
--FILE--
<?php
require __DIR__ . '/nginx_fpm.inc';

$blob = fcint_blob();
$odd = fcint_data_file(FCINT_ODD_SIZE);
$tmp = fcint_tmpdir('symfony-str');
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['blob' => $blob['path'], 'odd' => $odd['path']]]);
$servers = fcfpm_stacks($docroot, $tmp);
fchttp_compare($servers, 'full GET 300 MiB', 'symfony_streamed.php', [], ['status' => 200, 'bytes' => $blob['size'],
    'sha256' => $blob['sha256'], 'headers' => ['Content-Length' => (string) $blob['size']], 'fast' => $blob['size']]);
fchttp_compare($servers, 'full GET odd size', 'symfony_streamed.php?file=odd', [], ['status' => 200,
    'bytes' => $odd['size'], 'sha256' => $odd['sha256'], 'fast' => $odd['size']]);
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
full GET 300 MiB: ok
full GET odd size: ok
done
