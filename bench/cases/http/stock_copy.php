<?php
// stream_copy_to_stream() into php://output (stock when the extension is not loaded).
require __DIR__ . '/_serve.php';

fcb_serve(static fn (string $f) => stream_copy_to_stream(fopen($f, 'rb'), fopen('php://output', 'wb')));
