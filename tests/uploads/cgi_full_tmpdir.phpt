--TEST--
php://input under php-cgi with upload_tmp_dir full (a 1 MiB tmpfs): the override's notices, stored bytes and spool are stock's
--EXTENSIONS--
fastcopy
--SKIPIF--
<?php
require __DIR__ . '/uploads.inc';
fcup_cgi_skipif();
if (PHP_OS_FAMILY !== 'Linux') die('skip tmpfs mounts are Linux');
if (!function_exists('posix_geteuid') || posix_geteuid() !== 0) die('skip mounting a tmpfs needs root');
if (fclib_autoload('dav') === null) die('skip icewind/streams not installed (tests/integration/setup.sh)');
?>
--FILE--
<?php
require __DIR__ . '/uploads.inc';

$mnt = fc_tmpdir() . '/tmpfs';
mkdir($mnt);
exec('mount -t tmpfs -o size=1m fastcopy-uploads ' . escapeshellarg($mnt) . ' 2>&1', $out, $rc);
if ($rc !== 0) {
    // not a failure of fastcopy's: say why and stop (a container without CAP_SYS_ADMIN)
    echo 'cannot mount a tmpfs: ', implode(' ', $out), "\n";
    exit;
}
try {
    $full = ['ini' => ["upload_tmp_dir=$mnt"]];
    foreach ([4 << 20, (1 << 20) + 5000] as $size) {
        $body = fcup_body($size);
        fcup_compare("PUT of $size, copy into a file", [['copy', null, 0, 'file'], ['rewind'], ['get']], $body, $full);
        fcup_compare("PUT of $size, file_put_contents()", [['fpc', 'file', 0]], $body, $full);
        fcup_compare("PUT of $size, 1000 then from 5000", [['copy', 1000, 0, 'temp'], ['copy', null, 5000, 'file']],
            $body, $full);
        // Stock's notice comes from the fread() in icewind's stream_read(), the
        // override's from file_put_contents(), which reads php://input itself.
        fcup_compare("PUT of $size, Nextcloud", [['nextcloud', 'file']], $body,
            $full + ['autoload' => fclib_autoload('dav'), 'any_function' => true]);
    }
    // the notice is there for both, once
    $r = fcup_cgi('override', [['copy', null, 0, 'file']], fcup_body(4 << 20), $full);
    echo 'notices: ', substr_count($r['stderr'], 'Notice:') + count($r['report']['steps'][0][3] ?? []), "\n";
    echo implode("\n", array_map(fn ($d) => preg_replace('/\d+ bytes/', 'N bytes', $d), $r['report']['steps'][0][3])), "\n";
} finally {
    exec('umount ' . escapeshellarg($mnt));
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
@exec('umount ' . escapeshellarg(fc_tmpdir() . '/tmpfs') . ' 2>/dev/null');
fc_clean();
?>
--EXPECTF--
PUT of 4194304, copy into a file: same
PUT of 4194304, file_put_contents(): same
PUT of 4194304, 1000 then from 5000: same
PUT of 4194304, Nextcloud: same
PUT of 1053576, copy into a file: same
PUT of 1053576, file_put_contents(): same
PUT of 1053576, 1000 then from 5000: same
PUT of 1053576, Nextcloud: same
notices: 1
8: %s
