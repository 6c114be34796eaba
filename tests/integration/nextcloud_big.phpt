--TEST--
Integration: a file over 4 GiB behind Nextcloud's wrapping (icewind/streams' CallbackWrapper, close callback only) through sabre/dav and the fastcgi path: whole and a range past 4 GiB; stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/harness.inc';
if (getenv('FASTCOPY_TEST_BIG') !== '1') {
    die('skip set FASTCOPY_TEST_BIG=1 (sends 4 GiB through nginx per mode)');
}
if (PHP_INT_SIZE < 8) {
    die('skip 64-bit only');
}
// The file is sparse: a few KiB where the filesystem keeps holes, 4 GiB where it does not.
$tmp = sys_get_temp_dir();
$probe = tempnam($tmp, 'fcint-hole');
$f = fopen($probe, 'wb');
fseek($f, 1 << 20);
fwrite($f, 'x');
fclose($f);
clearstatcache();
$need = stat($probe)['blocks'] * 512 < (1 << 20) ? 64 << 20 : (4 << 30) + (256 << 20);
unlink($probe);
if (disk_free_space($tmp) < $need) {
    die('skip ' . ($need >> 20) . " MiB free needed in $tmp");
}
fcint_skipif(['nginx', 'fpm', 'curl', 'dav']);
?>
--FILE--
<?php
require __DIR__ . '/harness.inc';

// Sparse, with marks at both ends and across 4 GiB (as fastcgi_big.phpt).
$tmp = fcint_tmpdir('nextcloud-big');
$blob = fcint_blob();
$docroot = fcint_dav_docroot($tmp, $blob);
$path = "$tmp/dav/big.bin";
$size = (4 << 30) + 70001;
$f = fopen($path, 'wb');
fwrite($f, 'start of the file');
fseek($f, (4 << 30) - 3);
fwrite($f, 'across 4 GiB');
fseek($f, $size - 8);
fwrite($f, 'the end!');
fclose($f);
$file = ['path' => $path, 'size' => $size, 'sha256' => hash_file('sha256', $path)];
$servers = fcint_stacks($docroot, $tmp, ['ini' => fcint_lib_ini()]);
$url = 'dav.php/big.bin?wrap=nextcloud';

fcint_compare($servers, 'GET of 4 GiB + 70001 bytes', $url, [], ['status' => 200, 'bytes' => $size,
    'sha256' => $file['sha256'], 'path' => ['fastcgi', $size], 'wrapped' => true], 600);
$start = (4 << 30) - 10;
fcint_compare($servers, 'range from 4 GiB - 10', $url, ["Range: bytes=$start-"],
    ['path' => ['fastcgi', $size - $start], 'wrapped' => true] + fcint_expect_range($file, $start, $size - 1));
fcint_done();
?>
--EXPECT--
override: on
GET of 4 GiB + 70001 bytes: ok
range from 4 GiB - 10: ok
done
