--TEST--
differential: a stream and its php://fd duplicate, which share one offset (seed 8103, 500 cases) - fastcopy_stream() == stream_copy_to_stream()
--DESCRIPTION--
php://fd/N duplicates the descriptor, so source and destination share the kernel's
offset while PHP keeps a position for each. Stock's mapped copy writes where the
source's read left that offset, right behind the range; fastcopy does so always.
Off its mapped path stock reads from the destination's offset instead (docs/differences.md), so only mapped cases, and those with nothing to copy that
stock leaves so (a length of 0, a destination at or past the end), are compared with
stock; every case is checked against the oracle.
--SKIPIF--
<?php
if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded');
if (!is_dir('/proc/self/fd')) die('skip needs /proc/self/fd');
?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/same_file.inc';

foreach (['stream_copy_to_stream', 'fastcopy_stream'] as $fn) {
    $r = fc_sf_run($fn, 'abcdefgh', ['mode' => 'dup', 's' => 0, 'd' => 2, 'len' => 4]);
    printf("%s: %s, file %s, positions %d %d\n", $fn, var_export($r['ret'], true), $r['out'], $r['src_pos'], $r['dst_pos']);
}
fc_sf_check(8103, 500, ['dup'], [0, 6, 8, 5000, 8192, 12289, 100000], ['r+', 'a+']);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
stream_copy_to_stream: 4, file abcdabcd, positions 4 6
fastcopy_stream: 4, file abcdabcd, positions 4 6
seed 8103: 500 cases, 231 also run with stock on any page size, 0 differ
