<?php
// A WebDAV GET the way Nextcloud/sabre-dav serve it: the app resolves Range and
// seeks, sabre/http's Sapi::sendResponse() streams the body. ?wrap=icewind puts
// the file behind icewind/streams' CallbackWrapper (a user-space wrapper), as
// Nextcloud does to count and close.
require __DIR__ . '/_config.inc';
require FCINT_ENDPOINT_LIB;
require FCINT_SHAPES;
if (FCINT_AUTOLOAD !== '') {
    require FCINT_AUTOLOAD;
}

$path = FCINT_FILES[$_GET['file'] ?? 'blob'];
$size = filesize($path);
$body = fopen($path, 'rb');
$read = 0;
$closed = false;
$sent = false;
if (isset($_GET['log'])) {
    // A client that hangs up: what the script saw, logged whether or not it was stopped.
    ignore_user_abort(($_GET['ignore'] ?? '0') === '1');
    register_shutdown_function(function () use (&$read, &$closed, &$sent): void {
        fcint_ep_log($_GET['log'], ['send_returned' => $sent, 'read' => $read, 'closed' => $closed,
            'connection_aborted' => connection_aborted()]);
    });
}
if (($_GET['wrap'] ?? '') === 'icewind') {
    $onRead = function (int $n) use (&$read): void { $read += $n; };
    $onClose = function () use (&$read, &$closed): void {
        $closed = true;
        fcint_ep_log('icewind-close.log', ['read' => $read]);
    };
    $body = class_exists(\Icewind\Streams\CallbackWrapper::class)
        ? \Icewind\Streams\CallbackWrapper::wrap($body, $onRead, null, $onClose)
        : \FcintShapes\CallbackWrapper::wrap($body, $onRead, $onClose);
}

$status = 200;
$headers = [
    'Content-Type' => 'application/octet-stream',
    'ETag' => '"fcint-' . $size . '"',
    'Accept-Ranges' => 'bytes',
    'Content-Length' => (string) $size,
];
$range = fcint_ep_range($_SERVER['HTTP_RANGE'] ?? null, $size);
if ($range === false) {
    $status = 416;
    $headers = ['Content-Range' => "bytes */$size", 'Content-Length' => '0'];
} elseif ($range !== null) {
    [$start, $end] = $range;
    fseek($body, $start);
    $status = 206;
    $headers['Content-Length'] = (string) ($end - $start + 1);
    $headers['Content-Range'] = "bytes $start-$end/$size";
}
$text = [200 => 'OK', 206 => 'Partial Content', 416 => 'Requested Range Not Satisfiable'][$status];

if (class_exists(\Sabre\HTTP\Sapi::class)) {
    \Sabre\HTTP\Sapi::sendResponse(new \Sabre\HTTP\Response($status, $headers, $status === 416 ? null : $body));
} else {
    \FcintShapes\sabre_send_response($status, $text, $headers, $status === 416 ? null : $body);
}
$sent = true;
