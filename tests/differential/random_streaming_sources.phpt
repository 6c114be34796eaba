--TEST--
differential: pipe and socket sources (seed 4242, 300 cases) - fastcopy_stream() == stream_copy_to_stream()
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/differential.inc';
fc_differential(4242, 300, FC_SRC_STREAMING, FC_DST_KINDS);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
seed 4242: 300 cases, 0 differ
