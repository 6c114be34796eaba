--TEST--
Integration: a file over 4 GiB behind Nextcloud's wrapping (icewind/streams' CallbackWrapper, close callback only) through sabre/dav and the fastcgi path: whole and a range past 4 GiB; stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/big.inc';
fcbig_skipif('nginx');
fcint_skipif(['nginx', 'fpm', 'curl', 'dav']);
?>
--FILE--
<?php
require __DIR__ . '/big.inc';
require __DIR__ . '/nginx_fpm.inc';

$tmp = fcint_tmpdir('nextcloud-big');
$docroot = fcint_dav_docroot($tmp, fcint_blob());
$file = fcbig_file("$tmp/dav/big.bin");
$size = $file['size'];
$servers = fcfpm_stacks($docroot, $tmp, ['ini' => fclib_ini()]);
$url = 'dav.php/big.bin?wrap=nextcloud';

fchttp_compare($servers, 'GET of 4 GiB + 70001 bytes', $url, [], ['status' => 200, 'bytes' => $size,
    'sha256' => $file['sha256'], 'path' => ['fastcgi', $size], 'wrapped' => true], 600);
$start = (4 << 30) - 10;
fchttp_compare($servers, 'range from 4 GiB - 10', $url, ["Range: bytes=$start-"],
    ['path' => ['fastcgi', $size - $start], 'wrapped' => true] + fchttp_expect_range($file, $start, $size - 1));
fcint_done();
?>
--EXPECT--
override: on
GET of 4 GiB + 70001 bytes: ok
range from 4 GiB - 10: ok
done
