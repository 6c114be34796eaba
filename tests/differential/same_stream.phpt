--TEST--
differential: one stream copied into itself (seed 8101, 500 cases) - fastcopy_stream() == stream_copy_to_stream()
--DESCRIPTION--
A stream copied into itself reads its range and writes it right behind, where the
read left the shared position. Stock appends a whole file to itself; fastcopy used to
return the count and move ftell() without changing the file (sendfile from a
descriptor to itself). Every case is checked against the oracle (a snapshot of the
range written behind it); those where stock's result does not hang on its 8 KiB block
are checked against stock too.
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/same_file.inc';

// the report's case: a 6-byte file opened 'r+' and copied into itself
foreach (['stream_copy_to_stream', 'fastcopy_stream'] as $fn) {
    $r = fc_sf_run($fn, 'abcdef', ['mode' => 'same', 's' => 0]);
    printf("%s: %s, file %s, positions %d %d\n", $fn, var_export($r['ret'], true), $r['out'], $r['src_pos'], $r['dst_pos']);
}
fc_sf_check(8101, 500, ['same'], [0, 6, 5000, 8192, 12289, 100000], ['r+', 'c+', 'a+']);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
stream_copy_to_stream: 6, file abcdefabcdef, positions 12 12
fastcopy_stream: 6, file abcdefabcdef, positions 12 12
seed 8101: 500 cases, 471 also run with stock on any page size, 0 differ
