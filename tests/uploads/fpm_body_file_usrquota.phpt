--TEST--
Uploads with the body handed over as the file nginx stored, upload_tmp_dir on an ext4 mounted with usrquota whose user (PHP-FPM's, root without CAP_SYS_RESOURCE) is over its quota while the disk has room: the override's spool writes fail where stock's do, with stock's notice and count (the kernel must enforce ext4 quotas: CONFIG_QFMT_V2)
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/../integration/harness.inc';
if (getenv('USE_ZEND_ALLOC') === '0' && getenv('ZEND_DONT_UNLOAD_MODULES') === '1') {
    die('skip under valgrind (run-tests.php -m): see fpm_body_file_valgrind.phpt');
}
require __DIR__ . '/filesystems.inc';
fs_skipif(['mkfs.ext4', 'setquota', 'quotaon', 'setpriv']);
if (($why = fs_ext4_quota_unsupported()) !== null) {
    die("skip $why: fpm_body_file_room.phpt puts upload_tmp_dir under a btrfs qgroup instead");
}
?>
--FILE--
<?php
require __DIR__ . '/body_file.inc';

$tmp = fcint_tmpdir('uploads-bodyfile-usrquota');
$mounted = [];
$unmount = function () use (&$mounted): void {
    fs_unmount($mounted);
    $mounted = [];
};
try {
    // root's quota binds PHP-FPM only without CAP_SYS_RESOURCE, which lets root past it
    $servers = fcfpm_stacks(fcup_fpm_docroot($tmp), $tmp, ['ini' => ["upload_tmp_dir=$tmp/ext4q/quota"],
        'wrap' => fs_no_quota_bypass(), 'nginx' => ['client_max_body_size 0;', ...fcup_body_file_nginx()]]);
    $quota = function () use ($tmp, &$mounted): ?array {
        $mnt = fs_mount($tmp, 'ext4q', $mounted, '64M');
        return $mnt !== null && fs_quota_dir($mnt, 'ext4q', 1024) !== null ? [] : null;
    };
    fcbf_over_quota($servers, 'user quota', $quota, $unmount);
    foreach ($servers as $srv) {
        $srv->stop();
    }
} finally {
    $unmount();
}
fcint_done();
?>
--CLEAN--
<?php
require __DIR__ . '/filesystems.inc';
fs_unmount_leftovers('uploads-bodyfile-usrquota');
?>
--EXPECT--
override: on
upload_tmp_dir over its user quota, copy: same
upload_tmp_dir over its user quota, copy of 2 MiB: same
upload_tmp_dir over its user quota, copy of 300,000 bytes, then the rest: same
upload_tmp_dir over its user quota, fread(), then a copy: same
upload_tmp_dir over its user quota, Nextcloud: same
done
