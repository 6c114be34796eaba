<?php
// A PUT stored as Nextcloud's OCA\DAV\Connector\Sabre\File::put() does on local
// storage: php://input behind icewind/streams 0.7.7's CallbackWrapper with only a
// pre-close callback (it records feof()), file_put_contents() of it into a part
// file (Local::writeStream()), the wrapper closed, the part file renamed.
require __DIR__ . '/_upload.php';

$root = dirname(__DIR__, 3);
require "$root/tests/integration/libs.inc";
require fclib_autoload('dav') ?? throw new RuntimeException('icewind/streams is not installed: run tests/integration/setup.sh');

use Icewind\Streams\CallbackWrapper;

fcb_upload(static function (string $path) {
    $isEof = null;
    $data = CallbackWrapper::wrap(fopen('php://input', 'r'), null, null, null, null, static function ($stream) use (&$isEof): void {
        $isEof = feof($stream);
    });
    $part = "$path.ocTransferId" . getmypid() . '.part';
    $n = file_put_contents($part, $data);
    fclose($data);
    if ($n === false || !$isEof || !rename($part, $path)) {
        return false;
    }
    return $n;
});
