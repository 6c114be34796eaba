--TEST--
differential: a write through the destination after each same-file copy (one stream, two streams, a php://fd duplicate; seeds 8104-8106) lands where stock's does - fastcopy_stream() == stream_copy_to_stream()
--DESCRIPTION--
PHP writes a plain file at its descriptor's offset, not at the stream's position, so
where the engine leaves that offset after a copy (its final lseek) shows only in what
the next write does. After every copy '#after#' is written through the destination
and the file and both positions are compared with the oracle (the write lands behind
the bytes the copy wrote; at the end in append mode) and, where stock's own result is
PHP's, with stock. A duplicate shares one offset between source and destination, so the
write goes where the source's read and the copy's write left it; after a copy that
moves nothing, where stock's casts of the source and then of the destination put it,
at the destination's position (a length of 0 returns before them).
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

$after = '#after#';
fc_sf_show('abcdefgh', ['mode' => 'same', 's' => 2, 'len' => 3, 'after' => $after]);
fc_sf_show('abcdefgh', ['mode' => 'two', 's' => 0, 'd' => 4, 'len' => 2, 'after' => $after]);
fc_sf_show('abcdefgh', ['mode' => 'two', 's' => 1, 'd' => 0, 'len' => 3, 'dmode' => 'a', 'after' => $after]);
fc_sf_show('abcdefgh', ['mode' => 'dup', 's' => 0, 'd' => 2, 'len' => 4, 'after' => $after]);
fc_sf_show('abcdefgh', ['mode' => 'dup', 's' => 11, 'd' => 8, 'after' => $after]);
fc_sf_show('abcdefgh', ['mode' => 'dup', 's' => 1, 'd' => 5, 'len' => 0, 'after' => $after]);

$sizes = [0, 6, 8, 5000, 8192, 12289, 100000];
fc_sf_check(8104, 300, ['same'], $sizes, ['r+', 'c+', 'a+'], true, $after);
fc_sf_check(8105, 400, ['two'], $sizes, ['r+', 'c+', 'a'], true, $after);
fc_sf_check(8106, 300, ['dup'], $sizes, ['r+', 'a+'], true, $after);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
same size=8 s=2 len=3 after=#after#
    fastcopy: 3, file abcdecde#after#, positions 15 15
    stock: the same
two size=8 s=0 d=4 len=2 after=#after#
    fastcopy: 2, file abcdab#after#, positions 2 13
    stock: the same
two size=8 s=1 d=0 len=3 dmode=a after=#after#
    fastcopy: 3, file abcdefghbcd#after#, positions 4 10
    stock: the same
dup size=8 s=0 d=2 len=4 after=#after#
    fastcopy: 4, file abcdabcd#after#, positions 4 13
    stock: the same
dup size=8 s=11 d=8 len='absent' after=#after#
    fastcopy: 0, file abcdefgh#after#, positions 11 15
    stock: the same
dup size=8 s=1 d=5 len=0 after=#after#
    fastcopy: 0, file a#after#, positions 1 12
    stock: the same
seed 8104: 300 cases, 273 also run with stock on any page size, 0 differ
seed 8105: 400 cases, 303 also run with stock on any page size, 0 differ
seed 8106: 300 cases, 141 also run with stock on any page size, 0 differ
