<?php
// sabre/dav's GET of the file: stock in the stock pool, the engine through the
// override in the fc pool.
require __DIR__ . '/_dav.php';

fcb_serve_dav();
