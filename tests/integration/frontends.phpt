--TEST--
Integration: the fastcgi path behind Apache 2.4 mod_proxy_fcgi, lighttpd mod_fastcgi, Caddy php_fastcgi and HAProxy fcgi-app (Debian's packages): a readfile() of 32 MiB and a range in sabre/http's stream_copy_to_stream($length, $offset) arrive whole and equal to stock's, carried by the fastcgi path; stock vs fastcopy.override
--SKIPIF--
<?php require __DIR__ . '/frontends.inc'; fcfe_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/frontends.inc';

$file = fcint_data_file(32 << 20);
$tmp = fcint_tmpdir('fe');
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['big' => $file['path']]]);
$modes = fcint_modes();
// A range off page boundaries, as sabre/http copies a Range request's bytes.
[$off, $len] = [(3 << 20) + 4099, (5 << 20) + 77];
foreach (array_keys(FCFE_KINDS) as $kind) {
    $servers = fcfe_pairs($kind, $docroot, $tmp, $modes);
    fchttp_download('fastcgi', $servers, "$kind: readfile of 32 MiB", ['fn' => 'readfile', 'file' => 'big'],
        ['status' => 200, 'bytes' => $file['size'], 'sha256' => $file['sha256']], $file['size'], 'fastcgi');
    fchttp_download('fastcgi', $servers, "$kind: stream_copy_to_stream offset $off length $len",
        ['fn' => 'scts', 'file' => 'big', 'off' => $off, 'len' => $len], fchttp_expect_slice($file, $off, $len), $len,
        'fastcgi');
    foreach ($servers as $srv) {
        $srv->stop();
    }
}
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
apache: readfile of 32 MiB: ok
apache: stream_copy_to_stream offset 3149827 length 5242957: ok
lighttpd: readfile of 32 MiB: ok
lighttpd: stream_copy_to_stream offset 3149827 length 5242957: ok
caddy: readfile of 32 MiB: ok
caddy: stream_copy_to_stream offset 3149827 length 5242957: ok
haproxy: readfile of 32 MiB: ok
haproxy: stream_copy_to_stream offset 3149827 length 5242957: ok
done
