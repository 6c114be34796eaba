--TEST--
differential: file sources into non-descriptor destinations (mmap path) (seed 515, 300 cases) - fastcopy_stream() == stream_copy_to_stream()
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/differential.inc';
fc_differential(515, 300, ['file', 'shm'], ['memory', 'temp', 'temp_file', 'output', 'user', 'rot13', 'b64', 'zlib']);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
seed 515: 300 cases, 0 differ
