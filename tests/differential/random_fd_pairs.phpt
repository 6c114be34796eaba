--TEST--
differential: descriptor-backed sources and destinations (kernel paths) (seed 9001, 300 cases) - fastcopy_stream() == stream_copy_to_stream()
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/differential.inc';
fc_differential(9001, 300, ['file', 'shm', 'pipe', 'pair', 'tcp'], ['file', 'shm', 'append', 'pipe', 'pair', 'tcp', 'unix']);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
seed 9001: 300 cases, 0 differ
