--TEST--
Uploads through nginx + PHP-FPM with the body handed over as the file nginx stored (REQUEST_BODY_FILE), that file, upload_tmp_dir and the destination on XFS (reflink on), on btrfs, on ext4 and across filesystems, stock vs fastcopy.override: the stored file shares the body's extents exactly where the filesystem clones, and the syscall that moved it is the one the kernel allows
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/../integration/harness.inc';
if (getenv('USE_ZEND_ALLOC') === '0' && getenv('ZEND_DONT_UNLOAD_MODULES') === '1') {
    die('skip under valgrind (run-tests.php -m): see fpm_valgrind.phpt');
}
require __DIR__ . '/filesystems.inc';
fs_skipif(['mkfs.xfs', 'xfs_io', 'mkfs.btrfs', 'filefrag', 'strace']);
?>
--FILE--
<?php
require __DIR__ . '/fpm.inc';
require __DIR__ . '/filesystems.inc';

$tmp = fcint_tmpdir('uploads-bodyfile-fs');
$mounted = [];
try {
    $xfs = fs_mount($tmp, 'xfs', $mounted);
    $btrfs = fs_mount($tmp, 'btrfs', $mounted);
    $tmpfs = fs_mount($tmp, 'tmpfs', $mounted);
    if (!$xfs || !$btrfs || !$tmpfs) {
        fcint_fail('a filesystem could not be made');
        exit;
    }
    @mkdir("$tmp/ext4/spool", 0777, true);
    @mkdir("$tmp/ext4/files", 0777, true);
    // [nginx's client_body_temp_path, upload_tmp_dir, the destinations]
    $layouts = [
        'XFS' => ["$xfs/body", "$xfs/spool", "$xfs/files"],
        'btrfs' => ["$btrfs/body", "$btrfs/spool", "$btrfs/files"],
        'the temp dir' => ["$tmp/ext4/body", "$tmp/ext4/spool", "$tmp/ext4/files"],
        'stored body on XFS, file on btrfs' => ["$xfs/body", "$xfs/spool", "$btrfs/files"],
        'stored body and file on XFS, spool on tmpfs' => ["$xfs/body", "$tmpfs/spool", "$xfs/files"],
    ];
    $filefrag = fcint_tool('filefrag');
    $big = (2 << 20) + 4099;
    foreach ($layouts as $layout => [$stored, $spool, $files]) {
        @mkdir($stored, 0700);
        $clones = dirname($stored) === dirname($files) && fs_clones($files);
        $root = "$tmp/www-" . count(glob("$tmp/www-*"));
        mkdir($root);
        $servers = fcfpm_stacks(fcup_fpm_docroot($root), $root, ['keepalive' => 2, 'ini' => ["upload_tmp_dir=$spool"],
            'nginx' => ['client_max_body_size 0;', ...fcup_body_file_nginx(), "client_body_temp_path $stored;"]]);
        $req = ['dir' => $files];
        foreach ([65536, $big] as $size) {
            $body = fcup_body($size);
            $ops = [['copy', null, 0, 'file'], ['extents', 'file', $filefrag], ['rewind'], ['get']];
            $runs = fcup_fpm_compare($servers, "$layout, copy into a file, $size bytes", $ops, $body, null,
                FCUP_FPM_PATHS, false, 'body_file', $req);
            // stock writes what it read: nothing shared; body_file's copy_file_range() shares
            // the stored body's extents where the filesystem clones, and only there
            $shared = array_map(fn ($r) => is_array($r['extents'][0]) ? $r['extents'][0][1] > 0 : $r['extents'][0], $runs);
            if ($runs && ($shared['stock'] !== false || ($shared['override'] ?? $clones) !== $clones)) {
                fcint_fail("$layout, $size bytes: shared extents " . json_encode($shared) . ', the filesystem '
                    . ($clones ? 'clones' : 'does not clone or is not the stored body\'s'));
            }
            fcup_fpm_compare($servers, "$layout, Nextcloud, $size bytes", [['nextcloud', 'file']], $body, null,
                FCUP_FPM_PATHS, false, 'body_file', $req);
            // a part: its fills copied into the spool (a reflink where it shares the stored body's filesystem)
            fcup_fpm_compare($servers, "$layout, part into a file, then the rest, $size bytes", [['copy', 40000, 0, 'file'],
                ['copy', null, 0, 'seeked'], ['rewind'], ['get']], $body, null, FCUP_FPM_PATHS, false, 'body_file', $req);
        }
        // Which syscall carried the body, as strace saw it: copy_file_range() where the kernel
        // allows it between the stored body's and the file's filesystems (asked of it with
        // xfs_io), else sendfile() after copy_file_range() was refused; all but the first 16 KiB
        // (stock's reads, until upload_tmp_dir holds the spool) in the kernel. What crosses user
        // space of the stored body is those 16 KiB and the last partial fill, read back
        // through php://input from the spool (which is then the stored body) to leave its
        // read buffer as stock's; stock reads all of it a fill at a time.
        if (isset($servers['override'])) {
            [$run, $calls] = fs_traced($servers['override'], 'override', [['copy', null, 0, 'file'], ['leave']],
                fcup_body($big), $req, $stored);
            $moved = $calls['copy_file_range'][1] + $calls['sendfile'][1];
            $expect = fs_copy_range($stored, $files) ? 'copy_file_range' : 'sendfile';
            $by = $calls['sendfile'][1] > 0 ? 'sendfile' : 'copy_file_range';
            if ($moved !== $big - 16384 || $by !== $expect || ($by === 'sendfile') !== ($calls['copy_file_range'][2] > 0)
                    || $calls['read'][1] !== 16384 + ($big - 16384) % 8192) {
                fcint_fail("$layout: strace saw " . json_encode($calls) . ", $expect expected for " . ($big - 16384)
                    . ' bytes');
            }
            echo "$layout: body_file's syscall is the one the kernel allows\n";
        }
        foreach ($servers as $srv) {
            $srv->stop();
        }
    }
} finally {
    fs_unmount($mounted);
}
fcint_done();
?>
--CLEAN--
<?php
require __DIR__ . '/filesystems.inc';
fs_unmount_leftovers('uploads-bodyfile-fs');
?>
--EXPECT--
override: on
XFS, copy into a file, 65536 bytes: same
XFS, Nextcloud, 65536 bytes: same
XFS, part into a file, then the rest, 65536 bytes: same
XFS, copy into a file, 2101251 bytes: same
XFS, Nextcloud, 2101251 bytes: same
XFS, part into a file, then the rest, 2101251 bytes: same
XFS: body_file's syscall is the one the kernel allows
override: on
btrfs, copy into a file, 65536 bytes: same
btrfs, Nextcloud, 65536 bytes: same
btrfs, part into a file, then the rest, 65536 bytes: same
btrfs, copy into a file, 2101251 bytes: same
btrfs, Nextcloud, 2101251 bytes: same
btrfs, part into a file, then the rest, 2101251 bytes: same
btrfs: body_file's syscall is the one the kernel allows
override: on
the temp dir, copy into a file, 65536 bytes: same
the temp dir, Nextcloud, 65536 bytes: same
the temp dir, part into a file, then the rest, 65536 bytes: same
the temp dir, copy into a file, 2101251 bytes: same
the temp dir, Nextcloud, 2101251 bytes: same
the temp dir, part into a file, then the rest, 2101251 bytes: same
the temp dir: body_file's syscall is the one the kernel allows
override: on
stored body on XFS, file on btrfs, copy into a file, 65536 bytes: same
stored body on XFS, file on btrfs, Nextcloud, 65536 bytes: same
stored body on XFS, file on btrfs, part into a file, then the rest, 65536 bytes: same
stored body on XFS, file on btrfs, copy into a file, 2101251 bytes: same
stored body on XFS, file on btrfs, Nextcloud, 2101251 bytes: same
stored body on XFS, file on btrfs, part into a file, then the rest, 2101251 bytes: same
stored body on XFS, file on btrfs: body_file's syscall is the one the kernel allows
override: on
stored body and file on XFS, spool on tmpfs, copy into a file, 65536 bytes: same
stored body and file on XFS, spool on tmpfs, Nextcloud, 65536 bytes: same
stored body and file on XFS, spool on tmpfs, part into a file, then the rest, 65536 bytes: same
stored body and file on XFS, spool on tmpfs, copy into a file, 2101251 bytes: same
stored body and file on XFS, spool on tmpfs, Nextcloud, 2101251 bytes: same
stored body and file on XFS, spool on tmpfs, part into a file, then the rest, 2101251 bytes: same
stored body and file on XFS, spool on tmpfs: body_file's syscall is the one the kernel allows
done
