--TEST--
wrappers: icewind/streams' CallbackWrapper as the destination, seen through (random cases, seed 2718) - fastcopy_stream() == stream_copy_to_stream()
--DESCRIPTION--
Random cases from a fixed seed, each run through stock stream_copy_to_stream() and
fastcopy_stream() on identical fresh streams: the real icewind/streams 0.7.7
CallbackWrapper (close callback only, nested in another, or with a read callback,
which a destination never calls) around a file (w+), php://memory, a pipe or a unix
socket pair, written from a file, php://memory, a pipe, a socket pair, or a file
behind a CallbackWrapper of its own (both sides seen through). Sizes around 4 KiB,
8 KiB, a FastCGI record (65528) and 64 KiB, and a few MiB; reads and seeks of the
source before the copy, $length and $offset. Compared: return value, destination
bytes, ftell() of both streams, the destination wrapper read back after rewind(),
the source's next read and a seek and read afterwards, warnings, how often each
close callback ran (once, at fclose(), never during the copy). The stream under
the destination wrapper must have moved exactly as far as the wrapper.
fastcopy_stats() must show each copy seen through once, with the bytes it moved.
--SKIPIF--
<?php require __DIR__ . '/../inc/wrappers.inc'; fcw_skipif(); ?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/wrappers.inc';
$destinations = [];
foreach (['cb', 'cb', 'nested', 'cb_read'] as $v) {
    foreach (['file', 'file', 'pipe', 'pair', 'memory'] as $k) {
        $destinations[] = [$v, $k];
    }
}
$sources = [[null, 'file'], [null, 'file'], [null, 'memory'], [null, 'pipe'], [null, 'pair'], ['cb', 'file'],
    ['nested', 'file'], ['cb', 'pipe']];
fcw_differential(2718, 60, $sources, $destinations, ['', '', '', 'sendfile', 'splice', 'copy_file_range', 'mmap']);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
seed 2718: 60 cases, 0 differ
seen through: yes
