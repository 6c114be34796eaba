--TEST--
Uploads under valgrind with the body handed over as the file nginx stored (REQUEST_BODY_FILE): PHP-FPM in memcheck, stock and fastcopy.override alike, copies that take the whole body (the spool becomes the stored file), a part (its fills copied into the spool), Nextcloud's wrapper, re-reads from the spool, a stored body cut short or removed, the script's own handle of the stored file beside PHP-FPM's or in a shutdown function, the stored file as the destination, a copy after a partial read; reports as stock's, then no memory error, no leak and no descriptor open at exit (--track-fds=yes) that stock PHP-FPM does not have
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
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

$tmp = fcint_tmpdir('uploads-bodyfile-vg');
$servers = fcfpm_stacks(fcup_fpm_docroot($tmp), $tmp, ['valgrind' => 'track-fds', 'keepalive' => 2,
    'nginx' => ['client_max_body_size 0;', ...fcup_body_file_nginx()]]);
$body = fcup_body(70001);
fcup_fpm_compare($servers, 'copy into a file, rewind, all', [['copy', null, 0, 'file'], ['rewind'], ['get']], $body, null,
    FCUP_FPM_PATHS, false, 'body_file');
fcup_fpm_compare($servers, 'part into a file, then the rest, new handle', [['copy', 30000, 0, 'file'],
    ['copy', null, 0, 'seeked'], ['reopen'], ['copy', null, 0, 'temp']], $body, null, FCUP_FPM_PATHS, false, 'body_file');
fcup_fpm_compare($servers, 'Nextcloud', [['nextcloud', 'file']], $body, null, FCUP_FPM_PATHS, false, 'body_file');
fcup_fpm_compare($servers, 'stored body cut short', [['fread', 20000], ['body_file', 'truncate', 40000],
    ['copy', null, 0, 'file']], $body);
fcup_fpm_compare($servers, 'stored body removed after a read', [['fread', 20000], ['body_file', 'unlink'],
    ['copy', null, 0, 'file']], $body);
// PHP-FPM's descriptor, and no other: three fills read (the spool a file), then the script's own
// handle of the stored file beside it, or alone in a shutdown function, or the stored file as the destination
$read = [['fread', 8192], ['fread', 8192], ['fread', 8192]];
fcup_fpm_compare($servers, 'two descriptors that match', [...$read, ['own_handle'], ['copy', null, 0, 'file']], $body);
fcup_fpm_compare($servers, 'a copy in a shutdown function, the script holding its own handle', [...$read, ['own_handle'],
    ['shutdown'], ['copy', null, 0, 'file'], ['rewind'], ['get']], $body);
fcup_fpm_compare($servers, 'a copy into the stored file', [...$read, ['copy', null, 0, 'stored']], $body);
// after a partial read: stock's first block, then the batch from php://input's position
fcup_fpm_compare($servers, 'fread(), then a copy into a file', [['fread', 333], ['copy', null, 0, 'file'], ['rewind'],
    ['get']], $body, null, FCUP_FPM_PATHS, false, 'body_file');
fcfpm_valgrind_check($servers);
fcint_done();
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
override: on
copy into a file, rewind, all: same
part into a file, then the rest, new handle: same
Nextcloud: same
stored body cut short: same
stored body removed after a read: same
two descriptors that match: same
a copy in a shutdown function, the script holding its own handle: same
a copy into the stored file: same
fread(), then a copy into a file: same
valgrind: ok
done
