--TEST--
Uploads through nginx + PHP-FPM with the stored file and upload_tmp_dir on XFS (reflink on), on btrfs and across filesystems, stock vs fastcopy.override (fastcopy.spool_clone=1, then off as by default): the paths that carried each body, and a copy from the spool shares extents exactly where the filesystem clones
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

$tmp = fcint_tmpdir('uploads-fs');
$mounted = [];
try {
    $xfs = fs_mount($tmp, 'xfs', $mounted);
    $btrfs = fs_mount($tmp, 'btrfs', $mounted);
    $tmpfs = fs_mount($tmp, 'tmpfs', $mounted);
    if (!$xfs || !$btrfs || !$tmpfs) {
        fcint_fail('a filesystem could not be made');
        exit;
    }
    @mkdir("$tmp/ext4-spool", 0777);
    $layouts = [
        'XFS' => [$xfs . '/spool', $xfs . '/files', true],
        'btrfs' => [$btrfs . '/spool', $btrfs . '/files', true],
        'spool on tmpfs, file on XFS' => [$tmpfs . '/spool', $xfs . '/files', false],
        'spool in the temp dir, file on btrfs' => [$tmp . '/ext4-spool', $btrfs . '/files', false],
    ];
    $filefrag = fcint_tool('filefrag');
    $big = (2 << 20) + 4099;
    foreach ($layouts as $layout => [$spool, $files, $sameFs]) {
        $clones = $sameFs && fs_clones($files);
        $root = "$tmp/www-" . count(glob("$tmp/www-*"));
        mkdir($root);
        $servers = fcfpm_stacks(fcup_fpm_docroot($root), $root, ['keepalive' => 2,
            'ini' => ["upload_tmp_dir=$spool", 'fastcopy.spool_clone=1'],
            'nginx' => ['client_max_body_size 0;', 'fastcgi_request_buffering off;']]);
        $req = ['dir' => $files];
        foreach ([1, 65536, $big] as $size) {
            $body = fcup_body($size);
            $socket = $size >= 65536 ? 'fastcgi_input' : null;
            fcup_fpm_compare($servers, "$layout, copy into a file, $size bytes", [['copy', null, 0, 'file'], ['rewind'],
                ['get']], $body, null, FCUP_FPM_PATHS, false, $socket, $req);
            $fpc = fcup_fpm_compare($servers, "$layout, file_put_contents, $size bytes", [['fpc', 'file', 0]], $body, null,
                FCUP_FPM_PATHS, false, $socket, $req);
            if ($socket && isset($fpc['override'])) {
                // the socket path splices the body into the file and clones the spool from it
                // exactly where the file and the spool share a filesystem that clones
                $d = fc_stats_delta($fpc['override']['before'], $fpc['override']['after'])['fastcgi_input'];
                $moved = [$d['spliced'] ?? 0, $d['spool_cloned'] ?? 0];
                $want = $clones ? $moved[0] > 0 && $moved[0] === $moved[1] && $moved[0] <= $d['bytes'] : $moved === [0, 0];
                if (!$want) {
                    fcint_fail("$layout, file_put_contents, $size bytes: spliced and cloned " . json_encode($d)
                        . ', the filesystem ' . ($clones ? 'clones' : 'does not clone or is not the spool\'s'));
                }
            }
            fcup_fpm_compare($servers, "$layout, Nextcloud, $size bytes", [['nextcloud', 'file']], $body, null,
                FCUP_FPM_PATHS, false, $socket, $req);
            $ops = [['copy', null, 0, 'temp'], ['rewind'], ['copy', null, 0, 'file'], ['extents', 'file', $filefrag],
                ['get']];
            $runs = fcup_fpm_compare($servers, "$layout, all, rewind, all into a file, $size bytes", $ops, $body, null,
                FCUP_FPM_PATHS, false, $size >= 65536 ? 'spool' : null, $req);
            if ($size < 65536 || !$runs) {
                continue;
            }
            // stock writes what it read: nothing shared; the spool path's copy_file_range()
            // shares the spool's extents where the filesystem clones, and only there
            $shared = array_map(fn ($r) => is_array($r['extents'][0]) ? $r['extents'][0][1] > 0 : $r['extents'][0], $runs);
            if ($shared['stock'] !== false || ($shared['override'] ?? $clones) !== $clones) {
                fcint_fail("$layout, $size bytes: shared extents " . json_encode($shared) . ', the filesystem '
                    . ($clones ? 'clones' : 'does not clone or is not the spool\'s') . ': '
                    . json_encode(array_column($runs, 'extents')));
            }
        }
        // Which syscall carried the spool path, as strace saw it: copy_file_range() where the
        // kernel allows it between the spool's and the file's filesystems (asked of it with
        // xfs_io), else sendfile() after copy_file_range() was refused. The kernel moves all
        // but the last partial 8 KiB fill, which stock's reads take.
        if (isset($servers['override'])) {
            [$run, $calls] = fs_traced($servers['override'], 'override', $ops, fcup_body($big), $req);
            $moved = $calls['copy_file_range'][1] + $calls['sendfile'][1];
            $spooled = fc_stats_delta($run['before'], $run['after'])['spool']['bytes'];
            $expect = fs_copy_range($spool, $files) ? 'copy_file_range' : 'sendfile';
            $by = $calls['sendfile'][1] > 0 ? 'sendfile' : 'copy_file_range';
            if ($moved === 0 || $moved > $spooled || $spooled - $moved >= 8192 || $by !== $expect
                || ($by === 'sendfile') !== ($calls['copy_file_range'][2] > 0)) {
                fcint_fail("$layout: the spool path counted $spooled bytes, strace saw " . json_encode($calls)
                    . ", $expect expected");
            }
            echo "$layout: the spool path's syscall is the one the kernel allows\n";
        }
        // a client that hangs up after 1 MiB
        fcup_fpm_compare($servers, "$layout, hang-up after 1 MiB, copy", [['copy', null, 0, 'file']], fcup_body(5 << 20),
            (1 << 20) + 3000, FCUP_FPM_PATHS, false, 'fastcgi_input', $req);
        foreach ($servers as $srv) {
            $srv->stop();
        }
    }
    // fastcopy.spool_clone off, the default: the socket path writes the file and the
    // spool from its buffer, on XFS too
    $root = "$tmp/www-default";
    mkdir($root);
    $servers = fcfpm_stacks(fcup_fpm_docroot($root), $root, ['keepalive' => 2, 'ini' => ["upload_tmp_dir=$xfs/spool"],
        'nginx' => ['client_max_body_size 0;', 'fastcgi_request_buffering off;']]);
    $runs = fcup_fpm_compare($servers, 'XFS, spool_clone off (the default), file_put_contents', [['fpc', 'file', 0]], fcup_body($big),
        null, FCUP_FPM_PATHS, false, 'fastcgi_input', ['dir' => "$xfs/files"]);
    if (isset($runs['override'])) {
        $d = fc_stats_delta($runs['override']['before'], $runs['override']['after'])['fastcgi_input'];
        if (($d['spliced'] ?? 0) !== 0 || ($d['spool_cloned'] ?? 0) !== 0) {
            fcint_fail('spool_clone off, yet spliced and cloned ' . json_encode($d));
        }
    }
    foreach ($servers as $srv) {
        $srv->stop();
    }
} finally {
    fs_unmount($mounted);
}
fcint_done();
?>
--CLEAN--
<?php
require __DIR__ . '/filesystems.inc';
fs_unmount_leftovers('uploads-fs');
?>
--EXPECT--
override: on
XFS, copy into a file, 1 bytes: same
XFS, file_put_contents, 1 bytes: same
XFS, Nextcloud, 1 bytes: same
XFS, all, rewind, all into a file, 1 bytes: same
XFS, copy into a file, 65536 bytes: same
XFS, file_put_contents, 65536 bytes: same
XFS, Nextcloud, 65536 bytes: same
XFS, all, rewind, all into a file, 65536 bytes: same
XFS, copy into a file, 2101251 bytes: same
XFS, file_put_contents, 2101251 bytes: same
XFS, Nextcloud, 2101251 bytes: same
XFS, all, rewind, all into a file, 2101251 bytes: same
XFS: the spool path's syscall is the one the kernel allows
XFS, hang-up after 1 MiB, copy: same
override: on
btrfs, copy into a file, 1 bytes: same
btrfs, file_put_contents, 1 bytes: same
btrfs, Nextcloud, 1 bytes: same
btrfs, all, rewind, all into a file, 1 bytes: same
btrfs, copy into a file, 65536 bytes: same
btrfs, file_put_contents, 65536 bytes: same
btrfs, Nextcloud, 65536 bytes: same
btrfs, all, rewind, all into a file, 65536 bytes: same
btrfs, copy into a file, 2101251 bytes: same
btrfs, file_put_contents, 2101251 bytes: same
btrfs, Nextcloud, 2101251 bytes: same
btrfs, all, rewind, all into a file, 2101251 bytes: same
btrfs: the spool path's syscall is the one the kernel allows
btrfs, hang-up after 1 MiB, copy: same
override: on
spool on tmpfs, file on XFS, copy into a file, 1 bytes: same
spool on tmpfs, file on XFS, file_put_contents, 1 bytes: same
spool on tmpfs, file on XFS, Nextcloud, 1 bytes: same
spool on tmpfs, file on XFS, all, rewind, all into a file, 1 bytes: same
spool on tmpfs, file on XFS, copy into a file, 65536 bytes: same
spool on tmpfs, file on XFS, file_put_contents, 65536 bytes: same
spool on tmpfs, file on XFS, Nextcloud, 65536 bytes: same
spool on tmpfs, file on XFS, all, rewind, all into a file, 65536 bytes: same
spool on tmpfs, file on XFS, copy into a file, 2101251 bytes: same
spool on tmpfs, file on XFS, file_put_contents, 2101251 bytes: same
spool on tmpfs, file on XFS, Nextcloud, 2101251 bytes: same
spool on tmpfs, file on XFS, all, rewind, all into a file, 2101251 bytes: same
spool on tmpfs, file on XFS: the spool path's syscall is the one the kernel allows
spool on tmpfs, file on XFS, hang-up after 1 MiB, copy: same
override: on
spool in the temp dir, file on btrfs, copy into a file, 1 bytes: same
spool in the temp dir, file on btrfs, file_put_contents, 1 bytes: same
spool in the temp dir, file on btrfs, Nextcloud, 1 bytes: same
spool in the temp dir, file on btrfs, all, rewind, all into a file, 1 bytes: same
spool in the temp dir, file on btrfs, copy into a file, 65536 bytes: same
spool in the temp dir, file on btrfs, file_put_contents, 65536 bytes: same
spool in the temp dir, file on btrfs, Nextcloud, 65536 bytes: same
spool in the temp dir, file on btrfs, all, rewind, all into a file, 65536 bytes: same
spool in the temp dir, file on btrfs, copy into a file, 2101251 bytes: same
spool in the temp dir, file on btrfs, file_put_contents, 2101251 bytes: same
spool in the temp dir, file on btrfs, Nextcloud, 2101251 bytes: same
spool in the temp dir, file on btrfs, all, rewind, all into a file, 2101251 bytes: same
spool in the temp dir, file on btrfs: the spool path's syscall is the one the kernel allows
spool in the temp dir, file on btrfs, hang-up after 1 MiB, copy: same
override: on
XFS, spool_clone off (the default), file_put_contents: same
done
