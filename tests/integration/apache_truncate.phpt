--TEST--
Integration: a file cut while the apache path sends it, under mod_ssl and mod_deflate, chunked, with Content-Length and over HTTP/1.0: the client gets a prefix of the file and then a broken-off connection, never Apache's framing over missing bytes; FILE_SHRANK in the stats; the child serves the next request whole; stock vs fastcopy.override
--SKIPIF--
<?php require __DIR__ . '/apache.inc'; fcap_skipif(); ?>
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
    $pairs['https'][$mode] = new FcintApache($mode, $docroot, "$tmp/ssl", $options + ['ssl' => true]);
}

$cases = [
    'readfile, chunked' => ['fn' => 'readfile'],
    'readfile, Content-Length' => ['fn' => 'readfile', 'cl' => '1'],
    'readfile, mod_deflate' => ['fn' => 'readfile', 'deflate' => '1'],
    'readfile, HTTP/1.0' => ['fn' => 'readfile', 'http10' => true],
    'sabre/http pieces, chunked' => ['fn' => 'pieces'],
];
foreach ($pairs as $scheme => $servers) {
    foreach ($cases as $name => $case) {
        $label = "$scheme, $name";
        $before = $GLOBALS['fcint_failures'];
        $endings = [];
        foreach ($servers as $mode => $srv) {
            fctr_refill($cut, $seed, $seed['size']);
            $pid0 = fctr_pid($srv);
            $log = 'cut-' . md5("$label $mode") . '.json';
            $q = http_build_query(['fn' => $case['fn'], 'cl' => $case['cl'] ?? '0', 'log' => $log]
                + (isset($case['deflate']) ? ['deflate' => '1'] : []));
            $curl = [...(isset($case['deflate']) ? ['-H', 'Accept-Encoding: gzip'] : []),
                // curl offers ALPN http/1.0 over TLS, which Apache's mod_ssl refuses
                ...(isset($case['http10']) ? ['--http1.0', '--no-alpn'] : [])];
            $r = fctr_fetch_while_cut($srv->url("cut.php?$q"), $srv->url('stats.php'), $cut, 1 << 20, 2 << 20,
                $curl, $srv->dir);
            [$body, $ending, $problem] = fctr_read_response($r['head'], $r['raw']);
            $endings[$mode] = $ending;
            $what = "$label [$mode]";
            if (!$r['cut'] || !str_contains($r['head'], ' 200 ')) {
                fcint_fail("$what: the download ended before the cut: " . json_encode(array_diff_key($r, ['raw' => 1])));
                continue;
            }
            if (isset($case['deflate']) !== str_contains(strtolower($r['head']), 'content-encoding: gzip')) {
                fcint_fail("$what: mod_deflate was " . (isset($case['deflate']) ? 'not ' : '') . "in the chain:\n{$r['head']}");
            }
            if (($problem ??= fctr_prefix_problem($body, $seed)) !== null) {
                fcint_fail("$what: the client received bytes that are not the file's ($problem), " . strlen($body)
                    . " bytes, ending $ending");
            }
            // Complete by its framing only where stock's is too, else broken off.
            if ($mode === 'override' && $ending === 'complete' && ($endings['stock'] ?? '') !== 'complete') {
                fcint_fail("$what: the response ends complete by its framing with " . strlen($body) . ' bytes, stock\'s '
                    . json_encode($endings['stock'] ?? null) . '; it must break off');
            }
            $next = json_decode($r['next'], true);
            $pid1 = fctr_pid($srv);
            if (!is_array($next) || $next['pid'] !== $pid0 || $pid1 !== $pid0) {
                fcint_fail("$what: the next request got " . json_encode(substr($r['next'], 0, 200)) . ", child $pid0 then $pid1\n"
                    . $srv->logs());
            }
            $got = fcint_wait_log("$tmp/logs/$log", 30);
            if ($got === null) {
                fcint_fail("$what: the script logged nothing\n" . $srv->logs());
                continue;
            }
            if ($mode === 'stock') {
                continue;
            }
            // README, difference 17: where the path ended the connection the stats say
            // FILE_SHRANK (never CLIENT_ABORTED), the script sees the connection aborted
            // and the client no complete response; otherwise the copy ended as stock's
            // read loop does, and the script sees what stock's sees.
            $d = fc_stats_delta($got['before'], $got['after']);
            $why = $d['apache']['fallbacks'] ?? [];
            $ended = isset($why['FILE_SHRANK']);
            if ($d['apache']['bytes'] < (1 << 20) || isset($why['CLIENT_ABORTED'])) {
                fcint_fail("$what: the apache path should carry the first MiB, no client left: " . json_encode($d['apache']));
            }
            $saw = array_diff_key($got, ['before' => 1, 'after' => 1, 'pid' => 1]);
            if ($saw['connection_aborted'] !== ($ended ? 1 : 0) || $saw['reached_end'] === $ended
                    || ($ended && $ending === 'complete')) {
                fcint_fail("$what: the response ended $ending, the path " . ($ended ? 'ended' : 'kept')
                    . ' the connection, the script saw ' . json_encode($saw));
            }
        }
        if ($GLOBALS['fcint_failures'] === $before) {
            echo "$label: ok\n";
        } else {
            echo "$label: endings " . json_encode($endings) . "\n";
        }
    }
    fctr_refill($cut, $seed, $seed['size']);
    fcap_download($servers, "$scheme: a whole file after the cuts", ['fn' => 'readfile', 'file' => 'cut'],
        fcfc_expect_slice($seed, 0, $seed['size']), $seed['size'], 'apache');
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
done
