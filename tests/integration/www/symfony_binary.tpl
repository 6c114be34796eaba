<?php
// Symfony HttpFoundation's BinaryFileResponse, Range handling included.
require __DIR__ . '/_config.inc';
require FCINT_AUTOLOAD;

use Symfony\Component\HttpFoundation\BinaryFileResponse;
use Symfony\Component\HttpFoundation\Request;

$r = new BinaryFileResponse(FCINT_FILES[$_GET['file'] ?? 'blob'], 200,
    ['Content-Type' => 'application/octet-stream'], true, null, false, true);
$r->prepare(Request::createFromGlobals());
$r->send();
