--TEST--
Uploads through nginx + PHP-FPM with upload_tmp_dir full (a 1 MiB tmpfs), the body from the socket or handed over as the file nginx stored: the override's notices, stored bytes and spool are stock's
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/../integration/harness.inc';
if (getenv('USE_ZEND_ALLOC') === '0' && getenv('ZEND_DONT_UNLOAD_MODULES') === '1') {
    die('skip under valgrind (run-tests.php -m): see fpm_valgrind.phpt');
}
if (PHP_OS_FAMILY !== 'Linux') die('skip tmpfs mounts are Linux');
if (!function_exists('posix_geteuid') || posix_geteuid() !== 0) die('skip mounting a tmpfs needs root');
fcint_skipif(['nginx', 'fpm', 'curl', 'dav']);
?>
--FILE--
<?php
require __DIR__ . '/fpm.inc';

$tmp = fcint_tmpdir('uploads-full');
$mnt = "$tmp/tmpfs";
mkdir($mnt);
exec('mount -t tmpfs -o size=1m,mode=1777 fastcopy-uploads ' . escapeshellarg($mnt) . ' 2>&1', $out, $rc);
if ($rc !== 0) {
    // not a failure of fastcopy's: say why and stop (a container without CAP_SYS_ADMIN)
    echo 'cannot mount a tmpfs: ', implode(' ', $out), "\n";
    exit;
}
try {
    // the body from the socket, or handed over as the file nginx stored (REQUEST_BODY_FILE)
    $configs = ['' => ['client_max_body_size 0;', 'fastcgi_request_buffering off;'],
        'body file, ' => ['client_max_body_size 0;', ...fcup_body_file_nginx()]];
    foreach ($configs as $how => $nginx) {
        $root = "$tmp/www-" . ($how === '' ? 'socket' : 'body-file');
        mkdir($root);
        $servers = fcfpm_stacks(fcup_fpm_docroot($root), $root, ['ini' => ["upload_tmp_dir=$mnt"], 'nginx' => $nginx]);
        foreach ([4 << 20, (1 << 20) + 5000] as $size) {
            $body = fcup_body($size);
            fcup_fpm_compare($servers, "{$how}PUT of $size, copy into a file", [['copy', null, 0, 'file'], ['rewind'],
                ['get']], $body);
            fcup_fpm_compare($servers, "{$how}PUT of $size, file_put_contents()", [['fpc', 'file', 0]], $body);
            fcup_fpm_compare($servers, "{$how}PUT of $size, 1000 then from 5000", [['copy', 1000, 0, 'temp'],
                ['copy', null, 5000, 'file']], $body);
            fcup_fpm_compare($servers, "{$how}PUT of $size, Nextcloud", [['nextcloud', 'file']], $body, null,
                FCUP_FPM_PATHS, true);
            // the spool holds what fitted: a second copy takes that from its file (sendfile: the
            // tmpfs is another filesystem), then ends where stock's does
            fcup_fpm_compare($servers, "{$how}PUT of $size, all, rewind, all into a file", [['copy', null, 0, 'temp'],
                ['rewind'], ['copy', null, 0, 'file'], ['rewind'], ['get']], $body, null, FCUP_FPM_PATHS, false, 'spool');
        }
        // one notice, as stock
        $r = fcup_fpm_put($servers[array_key_last($servers)], 'last', [['copy', null, 0, 'file']], fcup_body(4 << 20));
        echo implode("\n", array_map(fn ($d) => preg_replace('/\d+ bytes/', 'N bytes', $d), $r['report']['steps'][0][3])), "\n";
        foreach ($servers as $srv) {
            $srv->stop();
        }
    }
} finally {
    exec('umount ' . escapeshellarg($mnt));
}
fcint_done();
?>
--EXPECTF--
override: on
PUT of 4194304, copy into a file: same
PUT of 4194304, file_put_contents(): same
PUT of 4194304, 1000 then from 5000: same
PUT of 4194304, Nextcloud: same
PUT of 4194304, all, rewind, all into a file: same
PUT of 1053576, copy into a file: same
PUT of 1053576, file_put_contents(): same
PUT of 1053576, 1000 then from 5000: same
PUT of 1053576, Nextcloud: same
PUT of 1053576, all, rewind, all into a file: same
8: stream_copy_to_stream(): Write of N bytes failed with errno=28 No space left on device
override: on
body file, PUT of 4194304, copy into a file: same
body file, PUT of 4194304, file_put_contents(): same
body file, PUT of 4194304, 1000 then from 5000: same
body file, PUT of 4194304, Nextcloud: same
body file, PUT of 4194304, all, rewind, all into a file: same
body file, PUT of 1053576, copy into a file: same
body file, PUT of 1053576, file_put_contents(): same
body file, PUT of 1053576, 1000 then from 5000: same
body file, PUT of 1053576, Nextcloud: same
body file, PUT of 1053576, all, rewind, all into a file: same
8: stream_copy_to_stream(): Write of N bytes failed with errno=28 No space left on device
done
