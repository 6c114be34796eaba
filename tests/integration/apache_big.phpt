--TEST--
Integration: a file over 4 GiB through the apache path under Apache + mod_php (readfile, and stream_copy_to_stream from an offset across 4 GiB); stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/big.inc';
require __DIR__ . '/apache.inc';
fcbig_skipif('Apache');
fcap_skipif();
?>
--FILE--
<?php
require __DIR__ . '/big.inc';
require __DIR__ . '/apache.inc';

$tmp = fcint_tmpdir('ap-big');
$file = fcbig_file("$tmp/big.bin");
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['big' => $file['path']]]);
fcbig_downloads('apache', fcap_servers($docroot, $tmp), $file, (4 << 30) - 100000);
fcint_done();
?>
--EXPECT--
override: on
readfile of 4 GiB + 70001 bytes: ok
stream_copy_to_stream from 4 GiB - 100000: ok
done
