<?php
// A PUT stored with stream_copy_to_stream(php://input, $file).
require __DIR__ . '/_upload.php';

fcb_upload(static function (string $path) {
    $in = fopen('php://input', 'r');
    $out = fopen($path, 'w');
    $n = stream_copy_to_stream($in, $out);
    fclose($out);
    fclose($in);
    return $n;
});
