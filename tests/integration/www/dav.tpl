<?php
// A WebDAV server the way sabre/dav's documentation sets one up: a Server over a
// Sabre\DAV\FS\Directory tree (FCINT_DAV_ROOT), at /dav.php/, with the locks and
// browser plugins. sabre/http 5.1.12's Sapi::sendResponse() writes the answer.
//   ?wrap=icewind   the files' get() returns the stream behind icewind/streams'
//                   CallbackWrapper with read and close callbacks, as Nextcloud's
//                   file nodes do (the close callback unlocks there; here it logs)
//   ?log=NAME&ignore=0|1   for a client that hangs up: ignore_user_abort() and,
//                   from a shutdown function, what the script saw
require __DIR__ . '/_config.inc';
require FCINT_ENDPOINT_LIB;
require FCINT_AUTOLOAD;

use Icewind\Streams\CallbackWrapper;
use Sabre\DAV;

final class FcintWatch
{
    public static int $read = 0;
    public static bool $closed = false;
}

/** A file node whose body is wrapped as Nextcloud wraps it. */
final class FcintWrappedFile extends DAV\FS\File
{
    public function get()
    {
        return CallbackWrapper::wrap(parent::get(), function (int $n): void {
            FcintWatch::$read += $n;
        }, null, function (): void {
            FcintWatch::$closed = true;
            fcint_ep_log('icewind-close.log', ['read' => FcintWatch::$read]);
        });
    }
}

final class FcintWrappedDirectory extends DAV\FS\Directory
{
    public function getChild($name)
    {
        $node = parent::getChild($name);
        return $node instanceof DAV\FS\File ? new FcintWrappedFile($this->path . '/' . $name) : $node;
    }
}

$sent = false;
if (isset($_GET['log'])) {
    ignore_user_abort(($_GET['ignore'] ?? '0') === '1');
    register_shutdown_function(function () use (&$sent): void {
        fcint_ep_log($_GET['log'], ['send_returned' => $sent, 'read' => FcintWatch::$read,
            'closed' => FcintWatch::$closed, 'connection_aborted' => connection_aborted()]);
    });
}

$root = ($_GET['wrap'] ?? '') === 'icewind'
    ? new FcintWrappedDirectory(FCINT_DAV_ROOT) : new DAV\FS\Directory(FCINT_DAV_ROOT);
$server = new DAV\Server($root);
$server->setBaseUri('/dav.php/');
$server->addPlugin(new DAV\Locks\Plugin(new DAV\Locks\Backend\File(FCINT_LOGDIR . '/dav-locks')));
$server->addPlugin(new DAV\Browser\Plugin());
$server->start();
$sent = true;
