--TEST--
Uploads under valgrind on XFS (reflink on, fastcopy.spool_clone=1): PHP-FPM in memcheck while the socket path splices bodies into their files and clones the spool from them (a copy, file_put_contents(), Nextcloud's PUT, two copies, a client that hangs up); reports as stock's, then no memory error and no leak stock PHP-FPM does not have
--SKIPIF--
<?php
require __DIR__ . '/../integration/harness.inc';
if (getenv('FCINT_VALGRIND') === '0') {
    die('skip FCINT_VALGRIND=0');
}
if (getenv('USE_ZEND_ALLOC') === '0' && getenv('ZEND_DONT_UNLOAD_MODULES') === '1') {
    die('skip already under valgrind (run-tests.php -m)');
}
fcint_skipif(['valgrind']);
require __DIR__ . '/filesystems.inc';
fs_skipif(['mkfs.xfs']);
?>
--FILE--
<?php
require __DIR__ . '/fpm.inc';
require __DIR__ . '/filesystems.inc';

$tmp = fcint_tmpdir('uploads-vgxfs');
$mounted = [];
try {
    $xfs = fs_mount($tmp, 'xfs', $mounted);
    if (!$xfs || !fs_clones("$xfs/files")) {
        fcint_fail('no XFS with reflink to test on');
        exit;
    }
    $servers = fcfpm_stacks(fcup_fpm_docroot($tmp), $tmp, ['valgrind' => true, 'keepalive' => 2,
        'ini' => ["upload_tmp_dir=$xfs/spool", 'fastcopy.spool_clone=1'],
        'nginx' => ['client_max_body_size 0;', 'fastcgi_request_buffering off;']]);
    $req = ['dir' => "$xfs/files"];
    $body = fcup_body(300001);
    $spliced = 0;
    foreach ([
        'copy into a file' => [['copy', null, 0, 'file'], ['rewind'], ['get']],
        'file_put_contents' => [['fpc', 'file', 0]],
        'Nextcloud' => [['nextcloud', 'file']],
        'two parts into a file' => [['copy', 65536, 0, 'file'], ['copy', 100000, 0, 'file']],
    ] as $label => $ops) {
        $runs = fcup_fpm_compare($servers, $label, $ops, $body, null, FCUP_FPM_PATHS, false, 'fastcgi_input', $req);
        if (isset($runs['override'])) {
            $spliced += fc_stats_delta($runs['override']['before'], $runs['override']['after'])['fastcgi_input']['spliced'] ?? 0;
        }
    }
    fcup_fpm_compare($servers, 'hang-up after 300000 bytes', [['copy', null, 0, 'file']], fcup_body(1 << 20), 300000,
        FCUP_FPM_PATHS, false, 'fastcgi_input', $req);
    echo $spliced > 0 ? "spliced: yes\n" : "spliced: no\n";
    fcfpm_valgrind_check($servers);
} finally {
    foreach ($servers ?? [] as $srv) {
        $srv->stop();
    }
    fs_unmount($mounted);
}
fcint_done();
?>
--CLEAN--
<?php
require __DIR__ . '/filesystems.inc';
fs_unmount_leftovers('uploads-vgxfs');
?>
--EXPECT--
override: on
copy into a file: same
file_put_contents: same
Nextcloud: same
two parts into a file: same
hang-up after 300000 bytes: same
spliced: yes
valgrind: ok
done
