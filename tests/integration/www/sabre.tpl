<?php
// A file sent by sabre/http's Sapi::sendResponse() alone, as an application
// that builds the Response itself does: ?http=7 takes sabre/http 7.1.0, else
// 5.1.12 (Nextcloud's); ?start=N&end=M sends those bytes as a 206, the case
// where sendResponse() first copies up to a page boundary.
require __DIR__ . '/_config.inc';

require ($_GET['http'] ?? '5') === '7' ? FCINT_AUTOLOAD_HTTP7 : FCINT_AUTOLOAD;

$path = FCINT_FILES[$_GET['file'] ?? 'blob'];
$size = filesize($path);
$body = fopen($path, 'rb');
$response = new \Sabre\HTTP\Response(200, ['Content-Type' => 'application/octet-stream',
    'Content-Length' => (string) $size], $body);
if (isset($_GET['start'], $_GET['end'])) {
    [$start, $end] = [(int) $_GET['start'], (int) $_GET['end']];
    fseek($body, $start);
    $response->setStatus(206);
    $response->setHeader('Content-Length', (string) ($end - $start + 1));
    $response->setHeader('Content-Range', "bytes $start-$end/$size");
}
\Sabre\HTTP\Sapi::sendResponse($response);
