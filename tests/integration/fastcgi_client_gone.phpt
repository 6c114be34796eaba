--TEST--
Integration: a client that leaves before the copy starts (nginx closes the FastCGI connection, the worker's header flush meets a reset on a TCP pool, a broken pipe on a unix one): the fastcgi path declines with CLIENT_ABORTED, not UNVERIFIED; the script sees what stock sees
--SKIPIF--
<?php require __DIR__ . '/harness.inc'; fcint_skipif(['nginx', 'fpm']); ?>
--FILE--
<?php
require __DIR__ . '/nginx_fpm.inc';
require_once dirname(__DIR__) . '/inc/stats.inc';

$odd = fcint_data_file(FCINT_ODD_SIZE);
$size = $odd['size'];

/** Waits (bounded) until $file has a line containing $needle. */
function gone_wait_line(string $file, string $needle, int $seconds = 30): bool
{
    for ($deadline = microtime(true) + $seconds; microtime(true) < $deadline; usleep(20000)) {
        if (str_contains((string) @file_get_contents($file), $needle)) {
            return true;
        }
    }
    return false;
}

foreach (['tcp', 'unix'] as $listen) {
    $tmp = fcint_tmpdir("gone-$listen");
    $docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['odd' => $odd['path']]]);
    $servers = fcfpm_stacks($docroot, $tmp, ['listen' => $listen]);
    foreach (['readfile', 'scts'] as $fn) {
        $before = $GLOBALS['fcint_failures'];
        $seen = [];
        foreach ($servers as $mode => $srv) {
            $label = "$listen pool, $fn [$mode]";
            $log = "gone-$listen-$fn-$mode.json";
            $c = stream_socket_client("tcp://127.0.0.1:{$srv->port}", $errno, $errstr, 10);
            fwrite($c, "GET /gone.php?fn=$fn&log=$log HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            if (fcint_wait_log("$tmp/logs/$log.started", 30) === null) {
                fcint_fail("$label: the script did not start\n" . $srv->logs());
                continue;
            }
            // The client leaves; nginx finalizes the request with 499 and closes
            // its FastCGI connection; only then may the script write.
            fclose($c);
            if (!gone_wait_line("{$srv->dir}/nginx-access.log", "/gone.php?fn=$fn&log=$log HTTP/1.1\" 499 ")) {
                fcint_fail("$label: nginx did not log the client's leaving (499)\n" . $srv->logs());
            }
            touch("$tmp/logs/$log.go");
            $got = fcint_wait_log("$tmp/logs/$log", 60);
            if ($got === null) {
                fcint_fail("$label: the script logged nothing\n" . $srv->logs());
                continue;
            }
            $seen[$mode] = ['returned' => $got['returned'], 'connection_aborted' => $got['connection_aborted']];
            if ($seen[$mode] !== ['returned' => $size, 'connection_aborted' => 1]) {
                fcint_fail("$label: the script saw " . json_encode($seen[$mode])
                    . ", stock PHP sees the whole length returned and the connection aborted");
            }
            if ($mode === 'stock') {
                continue;
            }
            $d = fc_stats_delta($got['before'], $got['after']);
            $why = $d['fastcgi']['fallbacks'] ?? null;
            if ($why !== ['CLIENT_ABORTED' => 1] || $d['fastcgi']['bytes'] !== 0) {
                fcint_fail("$label: the fastcgi path should have declined once with CLIENT_ABORTED: " . json_encode($d));
            }
        }
        if ($GLOBALS['fcint_failures'] === $before) {
            echo "$listen pool, $fn: ok\n";
        }
    }
    foreach ($servers as $srv) {
        $srv->stop();
    }
}
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
tcp pool, readfile: ok
tcp pool, scts: ok
override: %r(on|unavailable \(.*\))%r
unix pool, readfile: ok
unix pool, scts: ok
done
