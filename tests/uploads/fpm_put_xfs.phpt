--TEST--
Uploads through nginx + PHP-FPM with the stored files and upload_tmp_dir on XFS (reflink on): fpm_put.phpt's whole matrix again, with fastcopy.spool_clone=1 (the socket path splices each body into its file and clones the spool from it) and without (the default: it writes both from its buffer), stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/../integration/harness.inc';
if (getenv('USE_ZEND_ALLOC') === '0' && getenv('ZEND_DONT_UNLOAD_MODULES') === '1') {
    die('skip under valgrind (run-tests.php -m): see fpm_valgrind.phpt');
}
require __DIR__ . '/filesystems.inc';
fs_skipif(['mkfs.xfs']);
?>
--FILE--
<?php
require __DIR__ . '/put_matrix.inc';
require __DIR__ . '/filesystems.inc';

$tmp = fcint_tmpdir('uploads-xfs');
$mounted = [];
$routed = 0;
/* Each copy the socket path carried: bytes spliced into the file are exactly the
 * spool's cloned bytes; with fastcopy.spool_clone=1 a copy into a new file from its
 * start (offsets that agree with the spool's) takes the splice route, without it none does. */
$check = function (string $label, array $run) use (&$routed): void {
    $clone = !str_starts_with($label, 'buffering off, spool_clone off');
    $d = fc_stats_delta($run['before'], $run['after'])['fastcgi_input'];
    [$spliced, $cloned] = [$d['spliced'] ?? 0, $d['spool_cloned'] ?? 0];
    $fromStart = preg_match('/(copy into a file|Nextcloud|part into a file|hang-up after \d{7,} bytes)/', $label);
    if ($spliced !== $cloned || $spliced > $d['bytes'] || ($clone ? $fromStart && $spliced === 0 : $spliced !== 0)) {
        fcint_fail("$label: spliced and cloned " . json_encode($d) . ($clone ? '' : ' with spool_clone off'));
    }
    $routed += $spliced > 0 ? 1 : 0;
};
try {
    $xfs = fs_mount($tmp, 'xfs', $mounted, '2G');
    if (!$xfs || !fs_clones("$xfs/files")) {
        fcint_fail('no XFS with reflink to test on');
        exit;
    }
    $clone = ['ini' => ['fastcopy.spool_clone=1']];
    fcup_put_stacks($tmp, [
        'on' => $clone + FCUP_PUT_STACKS['on'],
        'off' => $clone + FCUP_PUT_STACKS['off'],
        // by default the socket path reads the body and writes it to both
        'off, spool_clone off' => FCUP_PUT_STACKS['off'],
    ], ["upload_tmp_dir=$xfs/spool"], ['dir' => "$xfs/files"], $check);
    echo $routed > 0 ? "the splice route carried bodies\n" : "the splice route carried nothing\n";
} finally {
    fs_unmount($mounted);
}
fcint_done();
?>
--CLEAN--
<?php
require __DIR__ . '/filesystems.inc';
fs_unmount_leftovers('uploads-xfs');
?>
--EXPECT--
override: on
buffering on: 66 PUTs the same
override: on
buffering off: 70 PUTs the same
override: on
buffering off, spool_clone off: 70 PUTs the same
the splice route carried bodies
done
