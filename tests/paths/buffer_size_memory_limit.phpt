--TEST--
fastcopy.buffer_size larger than memory_limit allows: blocks shrink to fit, the copy completes as stock's does
--DESCRIPTION--
Stock copies in 8 KiB pieces, so no memory_limit stops it. A block of 512M under a
memory_limit of 16M would end the script with a fatal error; the engine takes at
most a quarter of what the limit still allows for a block (at least 8 KiB).
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
memory_limit=16M
fastcopy.buffer_size=512M
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

$data = fc_bytes(3000000, 9);
foreach (['stream_copy_to_stream', 'fastcopy_stream'] as $fn) {
    $in = fopen('php://memory', 'w+');
    fwrite($in, $data);
    rewind($in);
    $out = fopen('php://temp', 'w+');
    $before = fastcopy_stats();
    $ret = $fn($in, $out);
    rewind($out);
    printf("%s: %s, bytes %s, peak under the limit: %s, engine: %s\n", $fn, var_export($ret, true),
        stream_get_contents($out) === $data ? 'same' : 'DIFFER', var_export(memory_get_peak_usage() < 16 << 20, true),
        json_encode(fc_paths_used(fc_stats_delta($before, fastcopy_stats()))));
}
?>
--EXPECT--
stream_copy_to_stream: 3000000, bytes same, peak under the limit: true, engine: []
fastcopy_stream: 3000000, bytes same, peak under the limit: true, engine: {"buffered":3000000}
