<?php
// sabre/dav 4.7.0 over FCINT_DAV_ROOT (dav_server.inc), at /dav.php/; sabre/http
// 5.1.12's Sapi::sendResponse() writes the answer.
//   ?wrap=icewind   every file behind icewind/streams' CallbackWrapper with read
//                   and close callbacks, as Nextcloud's file nodes do (its close
//                   callback unlocks the file; this one logs what was read)
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
if (isset($_GET['log'])) {
    ignore_user_abort(($_GET['ignore'] ?? '0') === '1');
    register_shutdown_function(function () use (&$read, &$closed, &$sent): void {
        fcint_ep_log($_GET['log'], ['send_returned' => $sent, 'read' => $read, 'closed' => $closed,
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
            fcint_ep_log('icewind-close.log', ['read' => $read]);
        });
    };
}
fcint_dav_server(FCINT_DAV_ROOT, '/dav.php/', FCINT_LOGDIR . '/dav-locks', $wrap)->start();
$sent = true;
