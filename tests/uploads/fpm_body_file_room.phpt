--TEST--
Uploads with the body handed over as the file nginx stored, where room runs out as the kernel enforces it: upload_tmp_dir under a quota the filesystem's free space does not show (a btrfs qgroup); the stored file and the destination on an XFS and a btrfs with less room than the body, where a copy could be a clone that takes none; fread() then a copy into a full tmpfs or one that fills mid-body; each report is stock's (difference 9 for the position after a failed write)
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/../integration/harness.inc';
if (getenv('USE_ZEND_ALLOC') === '0' && getenv('ZEND_DONT_UNLOAD_MODULES') === '1') {
    die('skip under valgrind (run-tests.php -m): see fpm_body_file_valgrind.phpt');
}
require __DIR__ . '/filesystems.inc';
fs_skipif(['mkfs.xfs', 'mkfs.btrfs', 'btrfs']);
?>
--FILE--
<?php
require __DIR__ . '/body_file.inc';

$tmp = fcint_tmpdir('uploads-bodyfile-room');
$mounted = [];
$unmount = function () use (&$mounted): void {
    fs_unmount($mounted);
    $mounted = [];
};
$stack = function (string $name, array $ini, array $nginx = []) use ($tmp): array {
    $root = "$tmp/www-$name";
    mkdir($root);
    return fcfpm_stacks(fcup_fpm_docroot($root), $root, ['ini' => $ini,
        'nginx' => ['client_max_body_size 0;', ...fcup_body_file_nginx(), ...$nginx]]);
};
$stop = function (array $servers): void {
    foreach ($servers as $srv) {
        $srv->stop();
    }
};
try {
    // upload_tmp_dir in a btrfs subvolume limited to 1 MiB by a qgroup, on a filesystem
    // with hundreds free: stock's spool writes fail with EDQUOT, and so must the copy
    $servers = $stack('quota', ["upload_tmp_dir=$tmp/btrfs/quota"]);
    $quota = function () use ($tmp, &$mounted): ?array {
        $mnt = fs_mount($tmp, 'btrfs', $mounted, '256M');
        return $mnt !== null && fs_quota_dir($mnt, 'btrfs', 1024) !== null ? [] : null;
    };
    fcbf_over_quota($servers, 'qgroup', $quota, $unmount);
    $stop($servers);

    // nginx's temp dir and the destination on a filesystem with 6 MiB free, a 4 MiB body:
    // 2 MiB left once nginx has stored it, where a clone would need none
    $body = fcup_body(4 << 20);
    foreach (['xfs', 'btrfs'] as $fs) {
        @mkdir("$tmp/$fs");
        foreach (['' => [], ', upload_tmp_dir there too' => ["upload_tmp_dir=$tmp/$fs/spool"]] as $spool => $ini) {
            $servers = $stack("$fs-room" . ($ini ? '-spool' : ''), $ini, ["client_body_temp_path $tmp/$fs/body;"]);
            $small = function () use ($tmp, $fs, &$mounted): ?array {
                $mnt = fs_mount($tmp, $fs, $mounted);
                if ($mnt === null || !mkdir("$mnt/body", 0700)) {
                    return null;
                }
                exec('sync -f ' . escapeshellarg($mnt) . ' && fallocate -l ' . max(0, (int) disk_free_space($mnt) - (6 << 20))
                    . ' ' . escapeshellarg("$mnt/filler") . ' 2>&1', $out, $rc);
                return $rc === 0 ? ['dir' => "$mnt/files"] : null;
            };
            foreach (['copy' => [['copy', null, 0, 'file'], ['rewind'], ['get']], 'Nextcloud' => [['nextcloud', 'file']]]
                    as $name => $ops) {
                fcbf_compare($servers, "$fs with less room than the body$spool, $name", $ops, $body, $small, $unmount,
                    fn (array $d) => $d['calls'] > 0 && ($d['spool_shared'] ?? 0) === 0 ? '' : json_encode($d),
                    $name === 'Nextcloud');
            }
            $stop($servers);
        }
    }

    // after fread($in, 333) php://input holds 7,859 bytes of its first fill; stock's next block
    // is those and 333 of a fill read before the write: into a full tmpfs the write of 8,192
    // bytes fails and the spool holds 16,384. Into a tmpfs that fills 4 KiB into a block, the
    // write stores that much, fails on the rest, and stock's copy loop tries the rest again
    $servers = $stack('tmpfs', []);
    $body = fcup_body((2 << 20) + 4099);
    foreach (['full' => 0, 'filling up inside a block' => (1 << 20) + 4096] as $name => $room) {
        $tmpfs = function () use ($tmp, $room, &$mounted): ?array {
            $mnt = fs_mount($tmp, 'tmpfs', $mounted, '2m');
            exec('fallocate -l ' . ((2 << 20) - $room) . ' ' . escapeshellarg("$mnt/filler") . ' 2>&1', $out, $rc);
            return $mnt !== null && $rc === 0 ? ['dir' => "$mnt/files"] : null;
        };
        $runs = fcbf_compare($servers, "fread(), then a copy into a tmpfs $name", [['fread', 333], ['copy', null, 0, 'file'],
            ['rewind'], ['get']], $body, $tmpfs, $unmount, fn (array $d) => $d['calls'] > 0 ? '' : json_encode($d));
        [, $ret, $state, $diag] = $runs['stock']['report']['steps'][1] ?? [null, null, [0, 0, 0, 0], []];
        echo "  stock: ", json_encode($ret), ', the spool at ', $state[3], ', ', implode(' ', $diag), "\n";
    }
    $stop($servers);
} finally {
    $unmount();
}
fcint_done();
?>
--CLEAN--
<?php
require __DIR__ . '/filesystems.inc';
fs_unmount_leftovers('uploads-bodyfile-room');
?>
--EXPECT--
override: on
upload_tmp_dir over its qgroup, copy: same
upload_tmp_dir over its qgroup, copy of 2 MiB: same
upload_tmp_dir over its qgroup, copy of 300,000 bytes, then the rest: same
upload_tmp_dir over its qgroup, fread(), then a copy: same
upload_tmp_dir over its qgroup, Nextcloud: same
override: on
xfs with less room than the body, copy: same
xfs with less room than the body, Nextcloud: same
override: on
xfs with less room than the body, upload_tmp_dir there too, copy: same
xfs with less room than the body, upload_tmp_dir there too, Nextcloud: same
override: on
btrfs with less room than the body, copy: same
btrfs with less room than the body, Nextcloud: same
override: on
btrfs with less room than the body, upload_tmp_dir there too, copy: same
btrfs with less room than the body, upload_tmp_dir there too, Nextcloud: same
override: on
fread(), then a copy into a tmpfs full: same
  stock: false, the spool at 16384, 8: stream_copy_to_stream(): Write of 8192 bytes failed with errno=28 No space left on device
fread(), then a copy into a tmpfs filling up inside a block: same
  stock: false, the spool at 1064960, 8: stream_copy_to_stream(): Write of 4096 bytes failed with errno=28 No space left on device 8: stream_copy_to_stream(): Write of 4096 bytes failed with errno=28 No space left on device
done
