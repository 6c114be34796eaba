--TEST--
Integration: a file over 4 GiB through the fastcgi path (readfile, and stream_copy_to_stream from an offset past 4 GiB); stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/big.inc';
fcbig_skipif('nginx');
fcint_skipif(['nginx', 'fpm', 'curl']);
?>
--FILE--
<?php
require __DIR__ . '/big.inc';
require __DIR__ . '/nginx_fpm.inc';

$tmp = fcint_tmpdir('fcgi-big');
$file = fcbig_file("$tmp/big.bin");
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['big' => $file['path']]]);
fcbig_downloads('fastcgi', fcfpm_stacks($docroot, $tmp), $file, (4 << 30) - 10);
fcint_done();
?>
--EXPECT--
override: on
readfile of 4 GiB + 70001 bytes: ok
stream_copy_to_stream from 4 GiB - 10: ok
done
