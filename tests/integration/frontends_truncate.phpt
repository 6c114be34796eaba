--TEST--
Integration: a file cut while the fastcgi path sends it behind Apache 2.4 mod_proxy_fcgi, lighttpd mod_fastcgi, Caddy php_fastcgi and HAProxy fcgi-app, chunked and with Content-Length: the client gets a prefix of the file and then stock's ending or a broken-off connection, never a byte that is not the file's; the worker serves the next request; what the client sees per front end; stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/frontends.inc'; fcfe_skipif();
?>
--INI--
memory_limit=1G
--FILE--
<?php
require __DIR__ . '/frontends.inc';
require __DIR__ . '/truncate.inc';

$seed = fcint_data_file(64 << 20);
$tmp = fcint_tmpdir('fe-cut');
$cut = "$tmp/cut/cut.bin";
mkdir(dirname($cut), 0755);
fctr_refill($cut, $seed, $seed['size']);
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['cut' => $cut]]);
$modes = fcint_modes();
$cases = ['chunked' => ['fn' => 'readfile'], 'Content-Length' => ['fn' => 'readfile', 'cl' => '1']];
foreach (array_keys(FCFE_KINDS) as $kind) {
    $servers = fcfe_pairs($kind, $docroot, $tmp, $modes);
    foreach ($cases as $name => $case) {
        fctr_case($servers, "$kind, $name", $case, $seed, $cut, "$tmp/logs", 'fastcgi', $seen);
        $line = [];
        foreach ($seen as $mode => $s) {
            // The front end held back no more than the cut left to send: the worker met it.
            if ($s['bytes'] >= $seed['size']) {
                fcint_fail("$kind, $name [$mode]: all {$s['bytes']} bytes arrived, the cut came after the send");
            }
            $line[] = "$mode {$s['ending']}";
        }
        // What the client sees of the cut (docs/shrinking-files.md):
        // chunked, stock's short well-formed ending, or a break where the worker ended
        // the connection inside a record. Apache's mod_proxy_fcgi does not pass the
        // script's Content-Length on and chunks the body, so it ends the same way; the
        // others break the connection off short of it (lighttpd after its keep-alive
        // idle time, HAProxy after its server timeout).
        echo "$kind, $name: ", implode(', ', $line), "\n";
    }
    foreach ($servers as $srv) {
        $srv->stop();
    }
}
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
apache, chunked: ok
apache, chunked: stock complete%r(, override (complete|broken))?%r
apache, Content-Length: ok
apache, Content-Length: stock complete%r(, override (complete|broken))?%r
lighttpd, chunked: ok
lighttpd, chunked: stock complete%r(, override (complete|broken))?%r
lighttpd, Content-Length: ok
lighttpd, Content-Length: stock broken%r(, override broken)?%r
caddy, chunked: ok
caddy, chunked: stock complete%r(, override (complete|broken))?%r
caddy, Content-Length: ok
caddy, Content-Length: stock broken%r(, override broken)?%r
haproxy, chunked: ok
haproxy, chunked: stock complete%r(, override (complete|broken))?%r
haproxy, Content-Length: ok
haproxy, Content-Length: stock broken%r(, override broken)?%r
done
