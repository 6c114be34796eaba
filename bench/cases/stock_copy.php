<?php
// Stock stream_copy_to_stream(): what PHP does today with no extension.
require __DIR__ . '/../lib/case.php';

fcb_run(static fn (array $c) => stream_copy_to_stream($c['in'], $c['out'], $c['length'], $c['offset']));
