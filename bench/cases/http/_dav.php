<?php
// A WebDAV GET as Nextcloud's and ownCloud's servers answer it: the real
// sabre/dav 4.7.0 Server over the directory holding FCBENCH_FILE, with
// sabre/http 5.1.12's Sapi::sendResponse() streaming the body to php://output
// in 4 MiB stream_copy_to_stream() pieces. The libraries come from the
// integration tests' Composer project (tests/integration/setup.sh).
require __DIR__ . '/_serve.php';

$root = dirname(__DIR__, 3);
require "$root/tests/integration/libs.inc";
require fclib_autoload('dav') ?? throw new RuntimeException('sabre/dav is not installed: run tests/integration/setup.sh');
require "$root/tests/integration/dav_server.inc";

/** Serves FCBENCH_FILE through sabre/dav; $wrap, if given, wraps each opened file as a file node's body. */
function fcb_serve_dav(?\Closure $wrap = null): void
{
    fcb_serve(static function (string $file) use ($wrap): bool {
        fcdav_server(dirname($file), $_SERVER['SCRIPT_NAME'] . '/', $_SERVER['FCBENCH_WORK'] . '/dav-locks', $wrap)
            ->start();
        return http_response_code() === 200;
    });
}
