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

$stacks = [
    'on' => ['listen' => 'tcp', 'nginx' => ['client_max_body_size 0;']],
    'off' => ['keepalive' => 2, 'nginx' => ['client_max_body_size 0;', 'fastcgi_request_buffering off;']],
];
foreach ($stacks as $buffering => $options) {
    $tmp = fcint_tmpdir("uploads-$buffering");
    $servers = fcint_stacks(fcup_fpm_docroot($tmp), $tmp, $options);
    fcup_put_matrix($servers, $buffering);
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
buffering on, part into a file, 0 bytes: same
buffering on, part into a file, 1 bytes: same
buffering on, part into a file, 8192 bytes: same
buffering on, part into a file, 16385 bytes: same
buffering on, part into a file, 65536 bytes: same
buffering on, part into a file, 2101251 bytes: same
buffering on, two parts into a file, from the socket, 0 bytes: same
buffering on, two parts into a file, from the socket, 1 bytes: same
buffering on, two parts into a file, from the socket, 8192 bytes: same
buffering on, two parts into a file, from the socket, 16385 bytes: same
buffering on, two parts into a file, from the socket, 65536 bytes: same
buffering on, two parts into a file, from the socket, 2101251 bytes: same
buffering on, fastcgi_finish_request() first, 0 bytes: same
buffering on, fastcgi_finish_request() first, 1 bytes: same
buffering on, fastcgi_finish_request() first, 8192 bytes: same
buffering on, fastcgi_finish_request() first, 16385 bytes: same
buffering on, fastcgi_finish_request() first, 65536 bytes: same
buffering on, fastcgi_finish_request() first, 2101251 bytes: same
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
buffering off, part into a file, 0 bytes: same
buffering off, part into a file, 1 bytes: same
buffering off, part into a file, 8192 bytes: same
buffering off, part into a file, 16385 bytes: same
buffering off, part into a file, 65536 bytes: same
buffering off, part into a file, 2101251 bytes: same
buffering off, two parts into a file, from the socket, 0 bytes: same
buffering off, two parts into a file, from the socket, 1 bytes: same
buffering off, two parts into a file, from the socket, 8192 bytes: same
buffering off, two parts into a file, from the socket, 16385 bytes: same
buffering off, two parts into a file, from the socket, 65536 bytes: same
buffering off, two parts into a file, from the socket, 2101251 bytes: same
buffering off, fastcgi_finish_request() first, 0 bytes: same
buffering off, fastcgi_finish_request() first, 1 bytes: same
buffering off, fastcgi_finish_request() first, 8192 bytes: same
buffering off, fastcgi_finish_request() first, 16385 bytes: same
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
buffering off, hang-up after 1051576 bytes, copy: same
buffering off, hang-up after 1051576 bytes, Nextcloud: same
buffering off, hang-up after 8191 bytes, copy: same
buffering off, hang-up after 8191 bytes, Nextcloud: same
buffering off, hang-up after 100 bytes, copy: same
buffering off, hang-up after 100 bytes, Nextcloud: same
done
