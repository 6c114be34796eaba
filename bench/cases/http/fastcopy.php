<?php
// fastcopy_stream() into php://output.
require __DIR__ . '/_serve.php';

fcb_serve(static fn (string $f) => fastcopy_stream(fopen($f, 'rb'), fopen('php://output', 'wb')));
