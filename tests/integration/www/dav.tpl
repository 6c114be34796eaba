<?php
// sabre/dav 4.7.0 over FCINT_DAV_ROOT (dav_server.inc), at /dav.php/; sabre/http
// 5.1.12's Sapi::sendResponse() writes the answer.
//   ?wrap=icewind   every file behind icewind/streams' CallbackWrapper with read
//                   and close callbacks (the close callback logs what was read)
//   ?wrap=nextcloud every file behind a CallbackWrapper with only a close
//                   callback, as OC\Files\View::fopen() wraps it to unlock the
//                   file (it logs each close), and ignore_user_abort(true), which
//                   View sets for the unlock
//   ?log=NAME&ignore=0|1   for a client that hangs up: ignore_user_abort() and,
//                   from a shutdown function, what the script saw
require __DIR__ . '/_config.inc';
require FCINT_ENDPOINT_LIB;
require FCINT_AUTOLOAD;
require FCINT_DAV_LIB;

use Icewind\Streams\CallbackWrapper;

$read = 0;
$closed = false;
$sent = false;
if (($_GET['wrap'] ?? '') === 'nextcloud') {
    ignore_user_abort(true);
}
if (isset($_GET['log'])) {
    ignore_user_abort(($_GET['ignore'] ?? '0') === '1' || ($_GET['wrap'] ?? '') === 'nextcloud');
    register_shutdown_function(function () use (&$read, &$closed, &$sent): void {
        fcep_log($_GET['log'], ['send_returned' => $sent, 'read' => $read, 'closed' => $closed,
            'connection_aborted' => connection_aborted()]);
    });
}

$wrap = null;
if (($_GET['wrap'] ?? '') === 'icewind') {
    // Not an arrow function: that would capture copies of $read and $closed.
    $wrap = static function ($file) use (&$read, &$closed) {
        return CallbackWrapper::wrap($file, function (int $n) use (&$read): void {
            $read += $n;
        }, null, function () use (&$read, &$closed): void {
            $closed = true;
            fcep_log('icewind-close.log', ['read' => $read]);
        });
    };
}
if (($_GET['wrap'] ?? '') === 'nextcloud') {
    $wrap = static function ($file) use (&$closed) {
        return CallbackWrapper::wrap($file, null, null, function () use (&$closed): void {
            $closed = true;
            fcep_log('nextcloud-close.log', ['closed' => true]);
        });
    };
}
fcdav_server(FCINT_DAV_ROOT, '/dav.php/', FCINT_LOGDIR . '/dav-locks', $wrap)->start();
$sent = true;
