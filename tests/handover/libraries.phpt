--TEST--
The hand-over of what the real libraries send: sabre/dav 4.7.0 (sabre/http 5.1.12's 4 MiB pieces, its ETag, Last-Modified and Content-Length), the same behind icewind/streams' CallbackWrapper as Nextcloud opens every file (seen through), a range sabre answers with 206 and a conditional it answers itself, behind nginx (on a unix-socket and a TCP pool) and lighttpd; stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/handover.inc';
fcho_skipif(['nginx', 'lighttpd']);
fcint_skipif(['dav']);
?>
--FILE--
<?php
require __DIR__ . '/handover.inc';

$dav = fn (string $query = '') => ['url' => 'dav.php/big.bin' . $query];
foreach (['nginx, unix socket' => 'unix', 'nginx, TCP' => 'tcp', 'lighttpd' => null] as $stack => $listen) {
    echo "-- $stack\n";
    $tmp = fcint_tmpdir('handover-libs');
    $data = fcho_data($tmp);
    $servers = $listen === null ? fcho_front_pairs('lighttpd', $tmp, $data)
        : fcho_nginx_stacks($tmp, $data, ['listen' => $listen, 'ini' => fclib_ini(), 'headers' => ['X-Sabre-Version']]);
    $range = $listen === null ? 'handover' : 'PARTIAL';
    fcho_case($servers, 'sabre/dav GET', $dav(), 'handover');
    fcho_case($servers, "Nextcloud's shape (CallbackWrapper)", $dav('?wrap=nextcloud'), 'handover');
    // a read callback must see every byte: the wrapper is not seen through, no file to keep
    fcho_case($servers, 'a CallbackWrapper with a read callback', $dav('?wrap=icewind'), 'none');
    fcho_case($servers, 'a range, 206', $dav(), $range, ['Range: bytes=4099-5000000']);
    // sabre answers 304 itself: no copy
    $etag = fchttp_header(fchttp_get($servers['stock']->url('dav.php/big.bin'), ['method' => 'HEAD']), 'ETag');
    fcho_case($servers, 'If-None-Match with its ETag', $dav(), 'none', ["If-None-Match: $etag"]);
    foreach ($servers as $srv) {
        $srv->stop();
    }
}
fcint_done();
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
-- nginx, unix socket
override: on
sabre/dav GET: ok
Nextcloud's shape (CallbackWrapper): ok
a CallbackWrapper with a read callback: ok
a range, 206: ok
If-None-Match with its ETag: ok
-- nginx, TCP
override: on
sabre/dav GET: ok
Nextcloud's shape (CallbackWrapper): ok
a CallbackWrapper with a read callback: ok
a range, 206: ok
If-None-Match with its ETag: ok
-- lighttpd
override: on
sabre/dav GET: ok
Nextcloud's shape (CallbackWrapper): ok
a CallbackWrapper with a read callback: ok
a range, 206: ok
If-None-Match with its ETag: ok
done
