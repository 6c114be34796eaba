--TEST--
Integration: a file cut while the fastcgi path sends it behind nginx, over plain HTTP and TLS at nginx, chunked, with Content-Length, over HTTP/1.0 and in sabre/http's pieces, on a TCP pool with fastcopy.same_host=copy (the records as copies from a mapping), and inside a record (a pool with two-page pipes): the client gets a prefix of the file and then stock's short ending or a broken-off connection, never a byte that is not the file's; FILE_SHRANK where the worker ended the connection; the worker serves the next request; stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/harness.inc';
fcint_skipif(['nginx', 'fpm', 'curl']);
if (trim((string) shell_exec('id -u')) !== '0' || fcint_tool('cc') === null || fcint_tool('setpriv') === null) {
    echo 'skip needs root, cc and setpriv (a pool run as nobody with small pipes)';
}
?>
--INI--
memory_limit=1G
--FILE--
<?php
require __DIR__ . '/nginx_fpm.inc';
require __DIR__ . '/truncate.inc';

$seed = fcint_data_file(64 << 20);
$tmp = fcint_tmpdir('fc-cut');
$cut = "$tmp/cut/cut.bin";
mkdir(dirname($cut), 0755);
fctr_refill($cut, $seed, $seed['size']);
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['cut' => $cut]]);
$pairs = ['http' => fcfpm_stacks($docroot, $tmp)];
foreach (array_keys($pairs['http']) as $mode) {
    $pairs['https'][$mode] = new FcfpmStack($mode, $docroot, "$tmp/ssl", ['ssl' => true]);
    // nginx reading a TCP pool on this host, copies asked for: the records go as copies
    // from a mapping, and a cut inside one fails the kernel's copy (EFAULT)
    $pairs['tcp pool'][$mode] = new FcfpmStack($mode, $docroot, "$tmp/tcp", ['listen' => 'tcp',
        'ini' => ['fastcopy.same_host=copy']]);
}

$cases = [
    'readfile, chunked' => ['fn' => 'readfile'],
    'readfile, Content-Length' => ['fn' => 'readfile', 'cl' => '1'],
    'readfile, HTTP/1.0' => ['fn' => 'readfile', 'http10' => true],
    'sabre/http pieces, chunked' => ['fn' => 'pieces'],
];
// A cut off a page boundary leaves the rest of its page reading as zeros where the
// copies come from a mapping: bytes sent past the new end end the connection.
$offPage = ['readfile, chunked, cut off a page boundary' => ['fn' => 'readfile', 'cut_to' => (2 << 20) + 1000]];
foreach ($pairs as $scheme => $servers) {
    foreach ($cases + ($scheme === 'tcp pool' ? $offPage : []) as $name => $case) {
        fctr_case($servers, "$scheme, $name", $case, $seed, $cut, "$tmp/logs", 'fastcgi');
    }
    foreach ($servers as $srv) {
        $srv->stop();
    }
}

// The size is read before each batch of records, and a 1 MiB pipe takes a whole
// batch at once, so the cut lands between batches. With small pipes it lands
// inside a record whose header has gone out, and the worker must end the
// connection there rather than complete the record: a pool whose user is over
// pipe-user-pages-soft gets pipes of two pages. A helper as that user (nobody)
// holds the user's pipe pages while the pool runs as nobody.
$hog = fctr_pipe_hog($tmp);
$servers = [];
foreach (array_keys($pairs['http']) as $mode) {
    $servers[$mode] = new FcfpmStack($mode, $docroot, "$tmp/small-pipes", ['pool' => ['user = nobody',
        'group = nogroup']]);
}
$inside = 0;
foreach ($cases as $name => $case) {
    if (!isset($case['http10'])) {
        $inside += (int) fctr_case($servers, "small pipes, $name", $case, $seed, $cut, "$tmp/logs", 'fastcgi');
    }
}
// Each cut lands inside a record unless it meets a record's last piece.
if (isset($servers['override']) && $inside === 0) {
    fcint_fail('small pipes: no cut landed inside a record');
}
fcint_kill($hog);
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
tcp pool, readfile, chunked: ok
tcp pool, readfile, Content-Length: ok
tcp pool, readfile, HTTP/1.0: ok
tcp pool, sabre/http pieces, chunked: ok
tcp pool, readfile, chunked, cut off a page boundary: ok
small pipes, readfile, chunked: ok
small pipes, readfile, Content-Length: ok
small pipes, sabre/http pieces, chunked: ok
done
