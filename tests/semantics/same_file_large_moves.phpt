--TEST--
semantics: copies within one file larger than a block move as memmove() does (oracle only)
--DESCRIPTION--
With 4 KiB blocks, ranges of up to 300 kB moved by a few bytes or a few blocks in
either direction, in one stream, two streams and php://fd duplicates: the file must
hold a snapshot of the source range at its destination. Stock's own result here
depends on its 8 KiB block or on the kernel's copy of a mapping onto itself, and
with a source running to the end it chases its own writes, so stock is not run.
--SKIPIF--
<?php
if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded');
if (!is_dir('/proc/self/fd')) die('skip needs /proc/self/fd');
?>
--INI--
fastcopy.disable=
fastcopy.buffer_size=4096
--FILE--
<?php
require __DIR__ . '/../inc/same_file.inc';

fc_sf_check(8104, 300, ['same', 'two', 'dup'], [40000, 100000, 300000], ['r+', 'c+'], false);

// the overlaps that matter most, by hand: shifted by 1 byte and by 3 blocks
$data = fc_bytes(300000, 5);
foreach ([[0, 1], [1, 0], [5, 5 + 3 * 4096], [5 + 3 * 4096, 5]] as [$s, $d]) {
    $c = ['mode' => 'two', 's' => $s, 'd' => $d];
    $r = fc_sf_run('fastcopy_stream', $data, $c);
    $d2 = fc_diff_results(fc_sf_expected($data, $c), $r);
    printf("s=%d d=%d: %s\n", $s, $d, $d2 ? implode('; ', $d2) : 'snapshot');
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
seed 8104: 300 cases, oracle only, 0 differ
s=0 d=1: snapshot
s=1 d=0: snapshot
s=5 d=12293: snapshot
s=12293 d=5: snapshot
