<?php
// A PUT stored as sabre/dav's FS file node does it (Sabre\DAV\FS\File::put()):
// file_put_contents($path, fopen('php://input', 'r')).
require __DIR__ . '/_upload.php';

fcb_upload(static function (string $path) {
    return file_put_contents($path, fopen('php://input', 'r'));
});
