--TEST--
differential: two streams on one file, apart, the same and overlapping ranges (seed 8102, 800 cases) - fastcopy_stream() == stream_copy_to_stream()
--DESCRIPTION--
Source and destination opened separately on one file, at positions before, on and
after each other, the destination also 'c+' and 'a'. An overlapping copy must give
the range as it was when the copy began (docs/differences.md, 11): with 'abcdefgh',
source at 0, destination at 2 and length 4, 'ababcdgh' (the kernel paths gave
'abababgh', re-reading bytes they had just written). fastcopy is checked against
that oracle always, and against stock in the same run where stock's result is
decided by PHP's code: not where it depends on its block size, chases its own
writes, or writes from a mapping of the pages it overwrites (there the routine the
kernel copies with on that CPU decides, `rep movsb` or a byte loop, and its result
varies with the CPU model and the length: on one machine lengths 4 and 8 gave the
snapshot, 6, 15, 16 and more repeated bytes). 4 KiB blocks, so that ranges of several
blocks are moved in the order memmove() would move them.
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
fastcopy.disable=
fastcopy.buffer_size=4096
--FILE--
<?php
require __DIR__ . '/../inc/same_file.inc';

foreach ([[0, 2], [2, 0], [3, 3], [3, 5], [5, 3]] as [$s, $d]) {
    fc_sf_show('abcdefgh', ['mode' => 'two', 's' => $s, 'd' => $d, 'len' => 4]);
}
fc_sf_check(8102, 800, ['two'], [0, 6, 8, 5000, 8192, 12289, 100000], ['r+', 'c+', 'a']);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
two size=8 s=0 d=2 len=4
    fastcopy: 4, file ababcdgh, positions 4 6
    stock: not compared (its result here is the kernel's)
two size=8 s=2 d=0 len=4
    fastcopy: 4, file cdefefgh, positions 6 4
    stock: the same
two size=8 s=3 d=3 len=4
    fastcopy: 4, file abcdefgh, positions 7 7
    stock: the same
two size=8 s=3 d=5 len=4
    fastcopy: 4, file abcdedefg, positions 7 9
    stock: the same
two size=8 s=5 d=3 len=4
    fastcopy: 3, file abcfghgh, positions 8 6
    stock: the same
seed 8102: 800 cases, 602 also run with stock on any page size, 0 differ
