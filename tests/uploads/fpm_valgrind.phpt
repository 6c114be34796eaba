--TEST--
Uploads under valgrind: PHP-FPM (master and worker) in memcheck, stock and fastcopy.override alike, PUTs copied from php://input, by file_put_contents() and through Nextcloud's wrapper, a second copy from the spool file, the body from the socket, a client that hangs up; reports as stock's, then no memory error and no leak stock PHP-FPM does not have
--SKIPIF--
<?php
require __DIR__ . '/../integration/harness.inc';
if (getenv('FCINT_VALGRIND') === '0') {
    die('skip FCINT_VALGRIND=0');
}
// run-tests.php -m runs this test's own PHP in valgrind, which cannot run a second one in the servers
if (getenv('USE_ZEND_ALLOC') === '0' && getenv('ZEND_DONT_UNLOAD_MODULES') === '1') {
    die('skip already under valgrind (run-tests.php -m)');
}
fcint_skipif(['nginx', 'fpm', 'curl', 'valgrind', 'dav']);
?>
--FILE--
<?php
require __DIR__ . '/fpm.inc';

$tmp = fcint_tmpdir('uploads-vg');
$docroot = fcup_fpm_docroot($tmp);
$servers = fcfpm_stacks($docroot, $tmp, ['valgrind' => true, 'keepalive' => 2,
    'nginx' => ['client_max_body_size 0;', 'fastcgi_request_buffering off;']]);
$body = fcup_body(70001);
fcup_fpm_compare($servers, '1000 then from 5000', [['copy', 1000, 0, 'memory'], ['copy', null, 5000, 'file']], $body);
fcup_fpm_compare($servers, 'fread, copy, new handle', [['fread', 10], ['copy', 9000, 0, 'append'], ['reopen'],
    ['copy', null, 0, 'temp']], $body);
// from the socket (the fastcgi_input path)
fcup_fpm_compare($servers, 'file_put_contents, LOCK_EX, then a string', [['fpc', 'seeked', LOCK_EX],
    ['fpc_data', 'string', FILE_APPEND]], $body, null, FCUP_FPM_PATHS, false, 'fastcgi_input');
fcup_fpm_compare($servers, 'Nextcloud', [['nextcloud', 'file']], $body);
// the second copy from the spool file (the spool path)
fcup_fpm_compare($servers, 'all, rewind, fread, all into a file', [['copy', null, 0, 'temp'], ['rewind'], ['fread', 9],
    ['copy', null, 0, 'file']], $body, null, FCUP_FPM_PATHS, false, 'spool');
fcup_fpm_compare($servers, 'hang-up after 20000 bytes', [['copy', null, 0, 'file']], fcup_body(1 << 20), 20000);
fcup_fpm_compare($servers, 'hang-up after 300000 bytes', [['copy', null, 0, 'file']], fcup_body(1 << 20), 300000,
    FCUP_FPM_PATHS, false, 'fastcgi_input');
fcfpm_valgrind_check($servers);
fcint_done();
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
override: on
1000 then from 5000: same
fread, copy, new handle: same
file_put_contents, LOCK_EX, then a string: same
Nextcloud: same
all, rewind, fread, all into a file: same
hang-up after 20000 bytes: same
hang-up after 300000 bytes: same
valgrind: ok
done
