--TEST--
wrappers: wrappers the engine must not see through (a callback set, a subclass, NullWrapper, CountWrapper, a filter) (random cases, seed 31337) - fastcopy_stream() == stream_copy_to_stream()
--DESCRIPTION--
Random cases from a fixed seed, stock stream_copy_to_stream() against
fastcopy_stream() on identical fresh streams, with icewind/streams 0.7.7 wrappers
that must be copied through as they are: a CallbackWrapper whose read callback
(as the source) or write callback (as the destination) is set, alone or inside a
CallbackWrapper that is seen through; a subclass of CallbackWrapper; NullWrapper;
CountWrapper; a CallbackWrapper with a stream filter on it. fastcopy_stats() must
count why ('CALLBACK_SET', 'SUBCLASS', 'UNKNOWN_CLASS', 'FILTERED'), each time the
engine looked. The callbacks must see what they see with stock: the write callbacks
the same bytes; the read callbacks, which receive counts, the same total where the
copy read the source to its end. Per call they differ (stock reads and writes
8 KiB at a time, fastcopy 256 KiB blocks), and where a $length stops the copy
short of the end, stock's read callback has also counted the 8 KiB chunks its
read loop read ahead, fastcopy's only what it copied; so only totals, and only
there, are compared. Also compared, as in the other tests here: return value,
destination bytes, positions, next reads, seeks, warnings, feof() (docs/differences.md,
10), close callbacks (once each, at fclose()).
--SKIPIF--
<?php require __DIR__ . '/../inc/wrappers.inc'; fcw_skipif(); ?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/wrappers.inc';
$kinds = ['file', 'file', 'pipe', 'pair', 'memory'];
$sources = $destinations = [];
foreach (['cb_read', 'cb_read', 'nested_read', 'subclass', 'null', 'count', 'filtered'] as $v) {
    foreach ($kinds as $k) {
        $sources[] = [$v, $k];
        $destinations[] = [null, $k];
    }
}
foreach (['cb_write', 'cb_write', 'nested_write', 'subclass', 'null', 'count', 'filtered'] as $v) {
    foreach ($kinds as $k) {
        $destinations[] = [$v, $k];
        $sources[] = [null, $k];
    }
}
$sources[] = ['cb', 'file'];
$destinations[] = ['cb', 'file'];
fcw_differential(31337, 70, $sources, $destinations, ['', '', 'sendfile', 'mmap']);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
seed 31337: 70 cases, 0 differ
seen through: yes
