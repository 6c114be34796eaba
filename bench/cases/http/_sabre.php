<?php
// The body writer of a sabre/http download (Nextcloud's and ownCloud's WebDAV
// GET): Sapi::sendResponse() streams the body to php://output in 4 MiB
// stream_copy_to_stream() pieces. The real library is used when the
// integration tests' Composer directory has it; otherwise the stand-in that
// replays its call sequence (tests/integration/shapes.inc explains why).
require __DIR__ . '/_serve.php';

$root = dirname(__DIR__, 3);
if (is_file("$root/tests/integration/.deps/vendor/autoload.php")) {
    require "$root/tests/integration/.deps/vendor/autoload.php";
}
require "$root/tests/integration/shapes.inc";

/** Serves FCBENCH_FILE the sabre/http way; $wrap turns the opened file into the body. */
function fcb_serve_sabre(?callable $wrap = null): void
{
    fcb_serve(static function (string $file) use ($wrap): bool {
        $body = fopen($file, 'rb');
        if ($wrap !== null) {
            $body = $wrap($body);
        }
        $headers = ['Content-Type' => 'application/octet-stream', 'Content-Length' => (string) filesize($file)];
        if (class_exists(\Sabre\HTTP\Sapi::class)) {
            \Sabre\HTTP\Sapi::sendResponse(new \Sabre\HTTP\Response(200, $headers, $body));
        } else {
            \FcintShapes\sabre_send_response(200, 'OK', $headers, $body);
        }
        return true;
    });
}
