--TEST--
fastcopy_stream(): destination opened read-only (EBADF from the kernel) falls back; the final write reports like the stream does
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

$data = fc_bytes(50000, 11);
$src = fc_file_with($data);
$dstPath = fc_file_with('original', 'dst-ro');

// stock: copy_file_range fails with EBADF and stock gives up silently
$in = fopen($src, 'r');
$out = fopen($dstPath, 'r');
var_dump(stream_copy_to_stream($in, $out));

// fastcopy: falls back; the stream's own write then reports the failure
$in = fopen($src, 'r');
$out = fopen($dstPath, 'r');
$before = fastcopy_stats();
var_dump(fastcopy_stream($in, $out));
$d = fc_stats_delta($before, fastcopy_stats());
var_dump(ftell($out));
var_dump(($d['copy_file_range']['fallbacks']['EBADF'] ?? 0) >= 1);
var_dump(array_sum(fc_paths_used($d)));
var_dump(file_get_contents($dstPath));

// a read-only destination of another kind: php://memory opened 'r'? (memory ignores mode) -> a pipe's read end
$p = proc_open(['cat'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
$in = fopen($src, 'r');
var_dump(fastcopy_stream($in, $pipes[1]));
fclose($pipes[0]);
fclose($pipes[1]);
proc_close($p);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECTF--
bool(false)

Notice: fastcopy_stream(): Write of %d bytes failed with errno=9 Bad file descriptor in %s on line %d
bool(false)
int(0)
bool(true)
int(0)
string(8) "original"

Notice: fastcopy_stream(): Write of %d bytes failed with errno=9 Bad file descriptor in %s on line %d
bool(false)
