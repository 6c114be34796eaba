<?php
// sabre/http's Sapi::sendResponse() of a file body: stock in the stock pool,
// the engine through the override in the fc pool.
require __DIR__ . '/_sabre.php';

fcb_serve_sabre();
