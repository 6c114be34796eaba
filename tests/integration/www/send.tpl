<?php
// Plain readfile() / fpassthru() / stream_copy_to_stream(php://output).
require __DIR__ . '/_config.inc';
require FCINT_ENDPOINT_LIB;

$path = FCINT_FILES[$_GET['file'] ?? 'blob'];
header('Content-Type: application/octet-stream');
if (($_GET['cl'] ?? '1') === '1') {
    header('Content-Length: ' . filesize($path));
}
fcep_emit($_GET['fn'] ?? 'readfile', $path);
