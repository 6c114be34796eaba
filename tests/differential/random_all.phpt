--TEST--
differential: all source and destination kinds (seed 20240611, 400 cases) - fastcopy_stream() == stream_copy_to_stream()
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/differential.inc';
fc_differential(20240611, 400, FC_SRC_KINDS, FC_DST_KINDS);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
seed 20240611: 400 cases, 0 differ
