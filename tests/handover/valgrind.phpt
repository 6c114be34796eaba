--TEST--
The hand-over under valgrind: PHP-FPM (master and worker) in memcheck behind nginx, stock and fastcopy.override alike: a file handed over whole and in sabre/http's pieces, given up by output after it, by a flush, by a file removed after the copy, by headers nginx would not keep, ended by fastcgi_finish_request() and by exit in a shutdown function; answers as stock, then no memory error and no leak stock PHP-FPM does not have
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/handover.inc';
if (getenv('FCINT_VALGRIND') === '0') {
    die('skip FCINT_VALGRIND=0');
}
// run-tests.php -m runs this test's own PHP in valgrind, which cannot start a second one
if (getenv('USE_ZEND_ALLOC') === '0' && getenv('ZEND_DONT_UNLOAD_MODULES') === '1') {
    die('skip already under valgrind (run-tests.php -m)');
}
fcho_skipif(['nginx']);
fcint_skipif(['valgrind']);
?>
--FILE--
<?php
require __DIR__ . '/handover.inc';

$tmp = fcint_tmpdir('handover-vg');
$data = fcho_data($tmp);
$servers = fcho_nginx_stacks($tmp, $data, ['keepalive' => 2, 'valgrind' => true]);
$big = ['f' => 'big.bin'];
fcho_case($servers, 'readfile', $big, 'handover');
fcho_case($servers, "sabre/http's pieces", $big + ['fn' => 'pieces'], 'handover');
fcho_case($servers, 'output after the file', $big + ['post' => 'AFTER'], 'OUTPUT_AFTER');
fcho_case($servers, 'a flush after the file', $big + ['flush' => 1], 'FLUSHED');
fcho_case($servers, 'the file removed after the copy', ['f' => 'gone.bin', 'unlink' => 1, 'copy_of' => 'big.bin'],
    'FILE_CHANGED');
fcho_case($servers, 'a header nginx is not told to give back', $big + ['hdr' => ['X-Custom: 1']], 'HEADERS');
fcho_case($servers, 'fastcgi_finish_request() after the copy', $big + ['finish' => 1], 'handover');
fcho_case($servers, 'exit in a shutdown function', $big + ['exit_in_shutdown' => ''], 'handover');
fcho_case($servers, 'readfile again on the kept connection', $big, 'handover');
fcfpm_valgrind_check($servers);
fcint_done();
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
override: on
readfile: ok
sabre/http's pieces: ok
output after the file: ok
a flush after the file: ok
the file removed after the copy: ok
a header nginx is not told to give back: ok
fastcgi_finish_request() after the copy: ok
exit in a shutdown function: ok
readfile again on the kept connection: ok
valgrind: ok
done
