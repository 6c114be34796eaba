--TEST--
wrappers: icewind/streams' CallbackWrapper as the source, seen through (random cases, seed 1701) - fastcopy_stream() == stream_copy_to_stream()
--DESCRIPTION--
Random cases from a fixed seed, each run through stock stream_copy_to_stream() and
fastcopy_stream() on identical fresh streams: the real icewind/streams 0.7.7
CallbackWrapper (close callback only, nested in another, or with a write callback,
which a source never calls) around a file, a pipe, a unix socket pair or
php://memory, copied into a file, php://memory, a pipe or a socket pair. Sizes
around 4 KiB, 8 KiB, a FastCGI record (65528) and 64 KiB, and a few MiB; fread(),
fgets(), fgetc() or fseek() of the wrapper before the copy (its read buffer then
holds bytes), $length and $offset (sabre's ranges are an fseek() and a $length).
Compared: return value, destination bytes, ftell() of both streams, what the next
read of the wrapper returns, an fseek()/rewind() and a read afterwards, warnings,
how often each close callback ran (once, at fclose(), never during the copy).
feof() of the wrapper: fastcopy's is the one docs/differences.md, 10 describes (true when the copy
reached the end of the source, false when it stopped short); stock reads a wrapper
with its read loop only, so the two are compared too, except where the copy asked
for exactly what was left. The inner streams' positions are not compared (stock's
wrapper reads 8 KiB ahead), but must be consistent: where a wrapper holds nothing
read ahead, it is as far as the stream under it. fastcopy_stats() must show each
copy that needed more than the wrapper's read-ahead seen through once, with the
bytes it moved after that.
--SKIPIF--
<?php require __DIR__ . '/../inc/wrappers.inc'; fcw_skipif(); ?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/wrappers.inc';
$sources = [];
foreach (['cb', 'cb', 'nested', 'cb_write'] as $v) {
    foreach (['file', 'file', 'pipe', 'pair', 'memory'] as $k) {
        $sources[] = [$v, $k];
    }
}
$destinations = [[null, 'file'], [null, 'memory'], [null, 'pipe'], [null, 'pair']];
fcw_differential(1701, 60, $sources, $destinations, ['', '', '', 'sendfile', 'splice', 'copy_file_range', 'mmap']);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
seed 1701: 60 cases, 0 differ
seen through: yes
