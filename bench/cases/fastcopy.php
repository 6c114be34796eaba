<?php
// fastcopy_stream(): the extension's drop-in for stream_copy_to_stream().
require __DIR__ . '/../lib/case.php';

fcb_run(static fn (array $c) => fastcopy_stream($c['in'], $c['out'], $c['length'], $c['offset']));
