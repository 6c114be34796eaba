<?php
// The Laravel Storage::download() shape: a StreamedResponse whose callback
// fpassthru()s the file, with Content-Length and Content-Disposition set.
require __DIR__ . '/_config.inc';
require FCINT_AUTOLOAD;

use Symfony\Component\HttpFoundation\Request;
use Symfony\Component\HttpFoundation\StreamedResponse;

$path = FCINT_FILES[$_GET['file'] ?? 'blob'];
$r = new StreamedResponse(function () use ($path): void {
    $f = fopen($path, 'rb');
    fpassthru($f);
    fclose($f);
}, 200, [
    'Content-Type' => 'application/octet-stream',
    'Content-Length' => (string) filesize($path),
    'Content-Disposition' => 'attachment; filename="' . basename($path) . '"',
]);
$r->prepare(Request::createFromGlobals());
$r->send();
