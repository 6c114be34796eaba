<?php
// Nextcloud's shape of the sabre/dav GET: the file node's body behind
// icewind/streams 0.7.7's CallbackWrapper with a read callback counting bytes
// and a close callback, as Nextcloud wraps every download.
require __DIR__ . '/_dav.php';

use Icewind\Streams\CallbackWrapper;

fcb_serve_dav(static function ($file) {
    $read = 0;
    return CallbackWrapper::wrap($file, static function (int $n) use (&$read): void {
        $read += $n;
    }, null, static function () use (&$read): void {
        if ($read !== filesize($_SERVER['FCBENCH_FILE'])) {
            error_log("fcbench: the wrapper's read callbacks saw $read bytes");
        }
    });
});
