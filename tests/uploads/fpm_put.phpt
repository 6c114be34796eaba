--TEST--
Uploads through nginx + PHP-FPM: copies and file_put_contents() from php://input, Nextcloud's wrapped PUT and a client that hangs up, stock vs fastcopy.override, request buffering on (TCP pool) and off (unix pool, kept FastCGI connections)
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/../integration/harness.inc';
// valgrind would follow this process into nginx and PHP-FPM: fpm_valgrind.phpt runs PHP-FPM in it
if (getenv('USE_ZEND_ALLOC') === '0' && getenv('ZEND_DONT_UNLOAD_MODULES') === '1') {
    die('skip under valgrind (run-tests.php -m): see fpm_valgrind.phpt');
}
fcint_skipif(['nginx', 'fpm', 'curl', 'dav']);
?>
--FILE--
<?php
require __DIR__ . '/put_matrix.inc';

fcup_put_stacks(fcint_tmpdir('uploads'), FCUP_PUT_STACKS);
fcint_done();
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
override: on
buffering on: 66 PUTs the same
override: on
buffering off: 70 PUTs the same
done
