--TEST--
differential: two streams on one file, apart, the same and overlapping ranges (seed 8102, 800 cases) - fastcopy_stream() == stream_copy_to_stream()
--DESCRIPTION--
Source and destination opened separately on one file, at positions before, on and
after each other, the destination also 'c+' and 'a'. An overlapping copy must give
what stock gives when it reads the range before writing it: with 'abcdefgh', source
at 0, destination at 2 and length 4, 'ababcdgh' (the kernel paths gave 'abababgh',
re-reading bytes they had just written). Checked against the oracle always, and
against stock where stock's result does not depend on its block size or chase its
own writes.
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/same_file.inc';

foreach ([[0, 2], [2, 0], [3, 3]] as [$s, $d]) {
    foreach (['stream_copy_to_stream', 'fastcopy_stream'] as $fn) {
        $r = fc_sf_run($fn, 'abcdefgh', ['mode' => 'two', 's' => $s, 'd' => $d, 'len' => 4]);
        printf("s=%d d=%d %s: %s, file %s, positions %d %d\n", $s, $d, $fn, var_export($r['ret'], true), $r['out'],
            $r['src_pos'], $r['dst_pos']);
    }
}
fc_sf_check(8102, 800, ['two'], [0, 6, 8, 5000, 8192, 12289, 100000], ['r+', 'c+', 'a']);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
s=0 d=2 stream_copy_to_stream: 4, file ababcdgh, positions 4 6
s=0 d=2 fastcopy_stream: 4, file ababcdgh, positions 4 6
s=2 d=0 stream_copy_to_stream: 4, file cdefefgh, positions 6 4
s=2 d=0 fastcopy_stream: 4, file cdefefgh, positions 6 4
s=3 d=3 stream_copy_to_stream: 4, file abcdefgh, positions 7 7
s=3 d=3 fastcopy_stream: 4, file abcdefgh, positions 7 7
seed 8102: 800 cases, 630 also run with stock, 0 differ
