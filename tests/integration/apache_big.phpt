--TEST--
Integration: a file over 4 GiB through the apache path under Apache + mod_php (readfile, and stream_copy_to_stream from an offset across 4 GiB); stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/apache.inc';
if (getenv('FASTCOPY_TEST_BIG') !== '1') {
    die('skip set FASTCOPY_TEST_BIG=1 (sends 4 GiB through Apache per mode)');
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
fcap_skipif();
?>
--FILE--
<?php
require __DIR__ . '/apache.inc';

// Sparse: the holes cost no disk, and the marks at both ends and past 4 GiB
// show where every byte landed.
$tmp = fcint_tmpdir('ap-big');
$path = "$tmp/big.bin";
$size = (4 << 30) + 70001;
$f = fopen($path, 'wb');
fwrite($f, 'start of the file');
fseek($f, (4 << 30) - 3);
fwrite($f, 'across 4 GiB');
fseek($f, $size - 8);
fwrite($f, 'the end!');
fclose($f);
$file = ['path' => $path, 'size' => $size, 'sha256' => hash_file('sha256', $path)];

$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['big' => $path]]);
$servers = fcap_servers($docroot, $tmp);
// Allow for stock's copy through the output layer on two busy cores.
fcap_download($servers, 'readfile of 4 GiB + 70001 bytes', ['fn' => 'readfile', 'file' => 'big'],
    ['status' => 200, 'bytes' => $size, 'sha256' => $file['sha256']], $size, 'apache', [], 600);
$off = (4 << 30) - 100000;
fcap_download($servers, 'stream_copy_to_stream from 4 GiB - 100000', ['fn' => 'scts', 'file' => 'big', 'off' => $off],
    fcfc_expect_slice($file, $off, $size - $off), $size - $off, 'apache');
fcint_done();
?>
--EXPECT--
override: on
readfile of 4 GiB + 70001 bytes: ok
stream_copy_to_stream from 4 GiB - 100000: ok
done
