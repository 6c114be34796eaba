--TEST--
Uploads through nginx + PHP-FPM: copies and file_put_contents() from php://input, Nextcloud's wrapped PUT and a client that hangs up, stock vs fastcopy.override, request buffering on (TCP pool) and off (unix pool, kept FastCGI connections)
--SKIPIF--
<?php
require __DIR__ . '/../integration/harness.inc';
// valgrind would follow this process into nginx and PHP-FPM: fpm_valgrind.phpt runs PHP-FPM in it
if (getenv('USE_ZEND_ALLOC') === '0' && getenv('ZEND_DONT_UNLOAD_MODULES') === '1') {
    die('skip under valgrind (run-tests.php -m): see fpm_valgrind.phpt');
}
fcint_skipif(['nginx', 'fpm', 'curl', 'dav']);
?>
--FILE--
<?php
require __DIR__ . '/fpm.inc';

$scenarios = [
    'copy into a file' => [['copy', null, 0, 'file'], ['rewind'], ['get']],
    '1000 then from 5000' => [['copy', 1000, 0, 'memory'], ['copy', null, 5000, 'temp']],
    'fread, two copies, new handle' => [['fread', 333], ['copy', 8193, 0, 'append'], ['copy', null, 0, 'seeked'],
        ['reopen'], ['copy', 70000, 0, 'temp']],
    'file_put_contents, LOCK_EX' => [['fpc', 'seeked', LOCK_EX]],
    'Nextcloud' => [['nextcloud', 'file']],
    // the rest of the body is left for PHP-FPM, and the next request comes on the same connection
    'part only' => [['copy', 1000, 0, 'temp']],
];
// the body read once, then copied again from its spool file by the spool path
$spooled = [
    'all, rewind, all into a file' => [['copy', null, 0, 'temp'], ['rewind'], ['copy', null, 0, 'file'], ['get']],
    '30000, rewind, fread, all into seeked, new handle' => [['copy', 30000, 0, 'temp'], ['rewind'], ['fread', 10],
        ['copy', null, 0, 'seeked'], ['reopen'], ['copy', 70001, 0, 'file']],
];
$sizes = [0, 1, 8192, 16385, 65536, (2 << 20) + 4099];

$stacks = [
    'on' => ['listen' => 'tcp', 'nginx' => ['client_max_body_size 0;']],
    'off' => ['keepalive' => 2, 'nginx' => ['client_max_body_size 0;', 'fastcgi_request_buffering off;']],
];
foreach ($stacks as $buffering => $options) {
    $tmp = fcint_tmpdir("uploads-$buffering");
    $docroot = fcup_fpm_docroot($tmp);
    $servers = fcint_stacks($docroot, $tmp, $options);
    foreach ($scenarios as $name => $ops) {
        foreach ($sizes as $size) {
            fcup_fpm_compare($servers, "buffering $buffering, $name, $size bytes", $ops, fcup_body($size));
        }
    }
    foreach ($spooled as $name => $ops) {
        foreach ($sizes as $size) {
            fcup_fpm_compare($servers, "buffering $buffering, $name, $size bytes", $ops, fcup_body($size), null,
                ['spool', 'buffered'], false, $size >= 65536 ? 'spool' : null);
        }
    }
    if ($buffering === 'off') {
        // nginx passes on what arrived, then closes the FastCGI connection
        $big = fcup_body(5 << 20);
        foreach ([(1 << 20) + 3000, 8191, 100] as $cut) {
            fcup_fpm_compare($servers, "hang-up after $cut bytes, copy", [['copy', null, 0, 'file']], $big, $cut);
            fcup_fpm_compare($servers, "hang-up after $cut bytes, Nextcloud", [['nextcloud', 'file']], $big, $cut);
        }
    }
    foreach ($servers as $srv) {
        $srv->stop();
    }
}
fcint_done();
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
override: on
buffering on, copy into a file, 0 bytes: same
buffering on, copy into a file, 1 bytes: same
buffering on, copy into a file, 8192 bytes: same
buffering on, copy into a file, 16385 bytes: same
buffering on, copy into a file, 65536 bytes: same
buffering on, copy into a file, 2101251 bytes: same
buffering on, 1000 then from 5000, 0 bytes: same
buffering on, 1000 then from 5000, 1 bytes: same
buffering on, 1000 then from 5000, 8192 bytes: same
buffering on, 1000 then from 5000, 16385 bytes: same
buffering on, 1000 then from 5000, 65536 bytes: same
buffering on, 1000 then from 5000, 2101251 bytes: same
buffering on, fread, two copies, new handle, 0 bytes: same
buffering on, fread, two copies, new handle, 1 bytes: same
buffering on, fread, two copies, new handle, 8192 bytes: same
buffering on, fread, two copies, new handle, 16385 bytes: same
buffering on, fread, two copies, new handle, 65536 bytes: same
buffering on, fread, two copies, new handle, 2101251 bytes: same
buffering on, file_put_contents, LOCK_EX, 0 bytes: same
buffering on, file_put_contents, LOCK_EX, 1 bytes: same
buffering on, file_put_contents, LOCK_EX, 8192 bytes: same
buffering on, file_put_contents, LOCK_EX, 16385 bytes: same
buffering on, file_put_contents, LOCK_EX, 65536 bytes: same
buffering on, file_put_contents, LOCK_EX, 2101251 bytes: same
buffering on, Nextcloud, 0 bytes: same
buffering on, Nextcloud, 1 bytes: same
buffering on, Nextcloud, 8192 bytes: same
buffering on, Nextcloud, 16385 bytes: same
buffering on, Nextcloud, 65536 bytes: same
buffering on, Nextcloud, 2101251 bytes: same
buffering on, part only, 0 bytes: same
buffering on, part only, 1 bytes: same
buffering on, part only, 8192 bytes: same
buffering on, part only, 16385 bytes: same
buffering on, part only, 65536 bytes: same
buffering on, part only, 2101251 bytes: same
buffering on, all, rewind, all into a file, 0 bytes: same
buffering on, all, rewind, all into a file, 1 bytes: same
buffering on, all, rewind, all into a file, 8192 bytes: same
buffering on, all, rewind, all into a file, 16385 bytes: same
buffering on, all, rewind, all into a file, 65536 bytes: same
buffering on, all, rewind, all into a file, 2101251 bytes: same
buffering on, 30000, rewind, fread, all into seeked, new handle, 0 bytes: same
buffering on, 30000, rewind, fread, all into seeked, new handle, 1 bytes: same
buffering on, 30000, rewind, fread, all into seeked, new handle, 8192 bytes: same
buffering on, 30000, rewind, fread, all into seeked, new handle, 16385 bytes: same
buffering on, 30000, rewind, fread, all into seeked, new handle, 65536 bytes: same
buffering on, 30000, rewind, fread, all into seeked, new handle, 2101251 bytes: same
override: on
buffering off, copy into a file, 0 bytes: same
buffering off, copy into a file, 1 bytes: same
buffering off, copy into a file, 8192 bytes: same
buffering off, copy into a file, 16385 bytes: same
buffering off, copy into a file, 65536 bytes: same
buffering off, copy into a file, 2101251 bytes: same
buffering off, 1000 then from 5000, 0 bytes: same
buffering off, 1000 then from 5000, 1 bytes: same
buffering off, 1000 then from 5000, 8192 bytes: same
buffering off, 1000 then from 5000, 16385 bytes: same
buffering off, 1000 then from 5000, 65536 bytes: same
buffering off, 1000 then from 5000, 2101251 bytes: same
buffering off, fread, two copies, new handle, 0 bytes: same
buffering off, fread, two copies, new handle, 1 bytes: same
buffering off, fread, two copies, new handle, 8192 bytes: same
buffering off, fread, two copies, new handle, 16385 bytes: same
buffering off, fread, two copies, new handle, 65536 bytes: same
buffering off, fread, two copies, new handle, 2101251 bytes: same
buffering off, file_put_contents, LOCK_EX, 0 bytes: same
buffering off, file_put_contents, LOCK_EX, 1 bytes: same
buffering off, file_put_contents, LOCK_EX, 8192 bytes: same
buffering off, file_put_contents, LOCK_EX, 16385 bytes: same
buffering off, file_put_contents, LOCK_EX, 65536 bytes: same
buffering off, file_put_contents, LOCK_EX, 2101251 bytes: same
buffering off, Nextcloud, 0 bytes: same
buffering off, Nextcloud, 1 bytes: same
buffering off, Nextcloud, 8192 bytes: same
buffering off, Nextcloud, 16385 bytes: same
buffering off, Nextcloud, 65536 bytes: same
buffering off, Nextcloud, 2101251 bytes: same
buffering off, part only, 0 bytes: same
buffering off, part only, 1 bytes: same
buffering off, part only, 8192 bytes: same
buffering off, part only, 16385 bytes: same
buffering off, part only, 65536 bytes: same
buffering off, part only, 2101251 bytes: same
buffering off, all, rewind, all into a file, 0 bytes: same
buffering off, all, rewind, all into a file, 1 bytes: same
buffering off, all, rewind, all into a file, 8192 bytes: same
buffering off, all, rewind, all into a file, 16385 bytes: same
buffering off, all, rewind, all into a file, 65536 bytes: same
buffering off, all, rewind, all into a file, 2101251 bytes: same
buffering off, 30000, rewind, fread, all into seeked, new handle, 0 bytes: same
buffering off, 30000, rewind, fread, all into seeked, new handle, 1 bytes: same
buffering off, 30000, rewind, fread, all into seeked, new handle, 8192 bytes: same
buffering off, 30000, rewind, fread, all into seeked, new handle, 16385 bytes: same
buffering off, 30000, rewind, fread, all into seeked, new handle, 65536 bytes: same
buffering off, 30000, rewind, fread, all into seeked, new handle, 2101251 bytes: same
hang-up after 1051576 bytes, copy: same
hang-up after 1051576 bytes, Nextcloud: same
hang-up after 8191 bytes, copy: same
hang-up after 8191 bytes, Nextcloud: same
hang-up after 100 bytes, copy: same
hang-up after 100 bytes, Nextcloud: same
done
