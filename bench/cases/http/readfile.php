<?php
// readfile(): stock in the stock pool, the engine in the pool with fastcopy.override=1.
require __DIR__ . '/_serve.php';

fcb_serve(static fn (string $f) => readfile($f));
