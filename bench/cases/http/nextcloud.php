<?php
// Nextcloud's shape of the sabre/http download: the file behind a user-space
// stream wrapper (icewind/streams' CallbackWrapper, or its stand-in) that
// counts what is read, as Nextcloud does for every WebDAV GET.
require __DIR__ . '/_sabre.php';

fcb_serve_sabre(static function ($file) {
    $read = 0;
    $count = static function (int $n) use (&$read): void { $read += $n; };
    return class_exists(\Icewind\Streams\CallbackWrapper::class)
        ? \Icewind\Streams\CallbackWrapper::wrap($file, $count)
        : \FcintShapes\CallbackWrapper::wrap($file, $count);
});
