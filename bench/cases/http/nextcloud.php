<?php
// Nextcloud's shape of the sabre/dav GET: the file node's body behind
// icewind/streams 0.7.7's CallbackWrapper with only a close callback, as
// OC\Files\View::fopen() wraps every file (the callback releases the lock), and
// ignore_user_abort(true), which View sets for that release.
require __DIR__ . '/_dav.php';

use Icewind\Streams\CallbackWrapper;

ignore_user_abort(true);
// ?disable=wrappers: the override as it served this before it saw through the wrapper
if (isset($_GET['disable']) && function_exists('fastcopy_stats')) {
    ini_set('fastcopy.disable', (string) $_GET['disable']);
}
fcb_serve_dav(static function ($file) {
    return CallbackWrapper::wrap($file, null, null, static function (): void {
    });
});
