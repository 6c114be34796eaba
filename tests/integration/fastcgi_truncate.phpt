--TEST--
Integration: a file cut while the fastcgi path sends it behind nginx, over plain HTTP and TLS at nginx, chunked, with Content-Length, over HTTP/1.0 and in sabre/http's pieces: the client gets a prefix of the file and then stock's short ending or a broken-off connection, never a byte that is not the file's; the worker serves the next request whole; stock vs fastcopy.override
--SKIPIF--
<?php require __DIR__ . '/harness.inc'; fcint_skipif(['nginx', 'fpm', 'curl']); ?>
--INI--
memory_limit=1G
--FILE--
<?php
require __DIR__ . '/fastcgi.inc';
require __DIR__ . '/truncate.inc';

$seed = fcint_data_file(64 << 20);
$tmp = fcint_tmpdir('fc-cut');
$cut = "$tmp/cut/cut.bin";
mkdir(dirname($cut), 0755);
fctr_refill($cut, $seed, $seed['size']);
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['cut' => $cut]]);
$pairs = ['http' => fcint_stacks($docroot, $tmp)];
foreach (array_keys($pairs['http']) as $mode) {
    $pairs['https'][$mode] = new FcintStack($mode, $docroot, "$tmp/ssl", ['ssl' => true]);
}

$cases = [
    'readfile, chunked' => ['fn' => 'readfile'],
    'readfile, Content-Length' => ['fn' => 'readfile', 'cl' => '1'],
    'readfile, HTTP/1.0' => ['fn' => 'readfile', 'http10' => true],
    'sabre/http pieces, chunked' => ['fn' => 'pieces'],
];
foreach ($pairs as $scheme => $servers) {
    foreach ($cases as $name => $case) {
        fctr_case($servers, "$scheme, $name", $case, $seed, $cut, "$tmp/logs", 'fastcgi');
    }
}
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
http, readfile, chunked: ok
http, readfile, Content-Length: ok
http, readfile, HTTP/1.0: ok
http, sabre/http pieces, chunked: ok
https, readfile, chunked: ok
https, readfile, Content-Length: ok
https, readfile, HTTP/1.0: ok
https, sabre/http pieces, chunked: ok
done
