<?php
// The loop sabre/http (and so Nextcloud/ownCloud) runs to send a body today:
// a 4 MiB chunk size on the output and stream_copy_to_stream() per chunk.
require __DIR__ . '/../lib/case.php';

fcb_run(static function (array $c): int|false {
    $chunk = 4 << 20;
    stream_set_chunk_size($c['out'], $chunk);
    if ($c['offset'] > 0) {
        fseek($c['in'], $c['offset']);
    }
    $left = $c['length'] ?? PHP_INT_MAX;
    $total = 0;
    while ($left > 0 && !feof($c['in'])) {
        $n = stream_copy_to_stream($c['in'], $c['out'], min($left, $chunk));
        if ($n === false) {
            return false;
        }
        if ($n === 0) {
            break;
        }
        $left -= $n;
        $total += $n;
    }
    return $total;
});
