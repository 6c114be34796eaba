--TEST--
Integration: a file cut while the apache path sends it, plain and under mod_ssl and mod_deflate, chunked, with Content-Length, over HTTP/1.0 and in sabre/http's pieces: the client gets a prefix of the file, then a broken-off connection (FILE buckets: FILE_SHRANK in the stats, the script sees an abort) or stock's ending (a filter reads the data), never Apache's framing over missing bytes; the child serves the next request on the connection; stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/apache.inc'; fcap_skipif();
?>
--INI--
memory_limit=1G
--FILE--
<?php
require __DIR__ . '/apache.inc';
require __DIR__ . '/truncate.inc';

$seed = fcint_data_file(64 << 20);
$tmp = fcint_tmpdir('ap-cut');
$cut = "$tmp/cut/cut.bin";
mkdir(dirname($cut), 0755);
fctr_refill($cut, $seed, $seed['size']);
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['cut' => $cut, 'blob' => $seed['path']]]);
// mod_deflate where the query asks for it (and the client accepts gzip).
$options = ['modules' => ['deflate'], 'conf' => ['<If "%{QUERY_STRING} =~ /deflate=1/">',
    '    SetOutputFilter DEFLATE', '</If>']];
$pairs = ['http' => fcap_servers($docroot, $tmp, $options)];
foreach (array_keys($pairs['http']) as $mode) {
    $pairs['https'][$mode] = new FcapServer($mode, $docroot, "$tmp/ssl", $options + ['ssl' => true]);
    // Apache's core reads the FILE bucket itself instead of sendfile()
    $pairs['no sendfile'][$mode] = new FcapServer($mode, $docroot, "$tmp/nosendfile",
        ['conf' => ['EnableSendfile Off']]);
}

$cases = [
    'readfile, chunked' => ['fn' => 'readfile'],
    'readfile, Content-Length' => ['fn' => 'readfile', 'cl' => '1'],
    'readfile, mod_deflate' => ['fn' => 'readfile', 'deflate' => '1'],
    'readfile, HTTP/1.0' => ['fn' => 'readfile', 'http10' => true],
    'sabre/http pieces, chunked' => ['fn' => 'pieces'],
];
foreach ($pairs as $scheme => $servers) {
    foreach ($scheme === 'no sendfile' ? array_slice($cases, 0, 2) : $cases as $name => $case) {
        fctr_case($servers, "$scheme, $name", $case, $seed, $cut, "$tmp/logs", 'apache');
    }
    fctr_refill($cut, $seed, $seed['size']);
    fchttp_download('apache', $servers, "$scheme: a whole file after the cuts", ['fn' => 'readfile', 'file' => 'cut'],
        fchttp_expect_slice($seed, 0, $seed['size']), $seed['size'], 'apache');
}
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
http, readfile, chunked: ok
http, readfile, Content-Length: ok
http, readfile, mod_deflate: ok
http, readfile, HTTP/1.0: ok
http, sabre/http pieces, chunked: ok
http: a whole file after the cuts: ok
https, readfile, chunked: ok
https, readfile, Content-Length: ok
https, readfile, mod_deflate: ok
https, readfile, HTTP/1.0: ok
https, sabre/http pieces, chunked: ok
https: a whole file after the cuts: ok
no sendfile, readfile, chunked: ok
no sendfile, readfile, Content-Length: ok
no sendfile: a whole file after the cuts: ok
done
