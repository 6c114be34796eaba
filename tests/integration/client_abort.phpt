--TEST--
Integration: client hangs up after 1 MiB (readfile, fpassthru, stream_copy_to_stream, a sabre/dav 4.7.0 GET with and without icewind/streams' CallbackWrapper); connection_aborted()/ignore_user_abort() as stock; the same worker then serves full bytes
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/harness.inc'; fcint_skipif(['nginx', 'fpm', 'curl', 'dav']);
?>
--FILE--
<?php
require __DIR__ . '/nginx_fpm.inc';
require_once dirname(__DIR__) . '/inc/stats.inc';

$blob = fcint_blob();
$size = $blob['size'];
$tmp = fcint_tmpdir('abort');
$servers = fcfpm_stacks(fcint_dav_docroot($tmp, $blob), $tmp, ['ini' => fclib_ini()]);

// What stock PHP-FPM reports once the client is gone: the write that fails marks
// the connection aborted; with ignore_user_abort(false) the script stops there
// (shutdown functions still run); with true it runs on and the copy still
// returns the full length, because php://output swallows output once disabled.
$stockWant = [
    0 => ['returned' => null, 'reached_end' => false, 'aborted_after_copy' => null,
        'ignore_user_abort' => false, 'connection_aborted' => 1, 'connection_status' => 1],
    1 => ['returned' => $size, 'reached_end' => true, 'aborted_after_copy' => 1,
        'ignore_user_abort' => true, 'connection_aborted' => 1, 'connection_status' => 1],
];

foreach (['readfile', 'fpassthru', 'scts'] as $fn) {
    foreach ([0, 1] as $ignore) {
        $before = $GLOBALS['fcint_failures'];
        $seen = [];
        foreach ($servers as $mode => $srv) {
            $label = "$fn ignore_user_abort=$ignore [$mode]";
            $s0 = fchttp_get_json($srv->url('stats.php'));
            $pid0 = $s0['pid'] ?? 0;
            $log = "abort-$fn-$ignore-$mode.log";
            $c = fchttp_get_and_hang_up($srv->url("abort.php?fn=$fn&ignore=$ignore&log=$log"), 1 << 20);
            if (!str_contains($c['status_line'], ' 200 ') || $c['body'] < (1 << 20)) {
                fcint_fail("$label: client saw " . json_encode($c));
            }
            $got = fcint_wait_log("$tmp/logs/$log");
            if ($got === null) {
                fcint_fail("$label: the script logged nothing within 60 s\n" . $srv->logs());
                continue;
            }
            $seen[$mode] = $got;
            if ($got != $stockWant[$ignore]) {
                fcint_fail("$label: script saw " . json_encode($got) . ', stock PHP sees ' . json_encode($stockWant[$ignore]));
            }
            // pm.max_children=1: this is the worker that just lost its client.
            $s1 = fchttp_get_json($srv->url('stats.php'));
            $pid1 = $s1['pid'] ?? -1;
            if ($pid0 !== $pid1) {
                fcint_fail("$label: worker changed from $pid0 to $pid1 (it died?)");
            }
            // The engine counts what it sent before the client went, also when
            // the script ended there (ignore_user_abort off).
            $d = $mode === 'stock' ? [] : fc_stats_delta($s0['stats'] ?? null, $s1['stats'] ?? null);
            if ($mode !== 'stock' && ($d === null || fc_stats_path_bytes($d) < (1 << 20))) {
                fcint_fail("$label: the client read 1 MiB, fastcopy_stats() counted " . json_encode($d));
            }
            // And they say why it stopped: the script ended by the hang-up, or
            // (aborts ignored) the rest skipped by the discard path, as the
            // disabled output layer would have thrown it away, the count stock's.
            $reasons = $d ? array_merge(...array_values(array_map(fn($p) => array_keys($p['fallbacks']), $d))) : [];
            if ($mode !== 'stock' && $ignore === 0 && !in_array('CLIENT_ABORTED', $reasons, true)) {
                fcint_fail("$label: no CLIENT_ABORTED in fastcopy_stats(): " . json_encode($d));
            }
            if ($mode !== 'stock' && $ignore === 1
                    && (($d['discard']['bytes'] ?? 0) <= 0 || fc_stats_path_bytes($d) !== $size)) {
                fcint_fail("$label: the rest after the hang-up should be skipped by the discard path: " . json_encode($d));
            }
        }
        if ($GLOBALS['fcint_failures'] === $before) {
            echo "$fn ignore_user_abort=$ignore: ok\n";
        }
    }
    fchttp_compare($servers, "$fn full GET after the aborts", "send.php?fn=$fn", [], ['status' => 200,
        'bytes' => $size, 'sha256' => $blob['sha256'], 'fast' => $size]);
}

// sabre/dav's GET, written by sabre/http 5.1.12's loop (Nextcloud's WebDAV
// download): with ignore_user_abort(true) it
// leaves after the 4 MiB piece during which the client went away, which needs
// connection_aborted() to turn 1 when a write into php://output fails, as
// stock. Behind the wrapper, the read callback shows how far it read.
foreach (['none', 'icewind'] as $wrap) {
    foreach ([0, 1] as $ignore) {
        $before = $GLOBALS['fcint_failures'];
        foreach ($servers as $mode => $srv) {
            $label = "sabre/dav wrap=$wrap ignore_user_abort=$ignore [$mode]";
            $pid0 = fchttp_get_json($srv->url('stats.php'))['pid'] ?? 0;
            $log = "abort-sabre-$wrap-$ignore-$mode.log";
            $c = fchttp_get_and_hang_up($srv->url("dav.php/blob.bin?wrap=$wrap&ignore=$ignore&log=$log"), 1 << 20);
            if (!str_contains($c['status_line'], ' 200 ') || $c['body'] < (1 << 20)) {
                fcint_fail("$label: client saw " . json_encode($c));
            }
            $got = fcint_wait_log("$tmp/logs/$log");
            if ($got === null) {
                fcint_fail("$label: the script logged nothing within 60 s\n" . $srv->logs());
                continue;
            }
            $piece = 4 << 20;
            $want = ['send_returned' => $ignore === 1, 'closed' => $ignore === 1 && $wrap === 'icewind',
                'connection_aborted' => 1];
            if (array_intersect_key($got, $want) !== $want) {
                fcint_fail("$label: script saw " . json_encode($got) . ', stock PHP sees ' . json_encode($want));
            }
            if ($ignore === 1 && $wrap === 'icewind'
                    && !($got['read'] > 0 && $got['read'] < $size && $got['read'] % $piece === 0)) {
                fcint_fail("$label: read {$got['read']} bytes; the loop should stop after the piece that failed");
            }
            $pid1 = fchttp_get_json($srv->url('stats.php'))['pid'] ?? -1;
            if ($pid0 !== $pid1) {
                fcint_fail("$label: worker changed from $pid0 to $pid1 (it died?)");
            }
        }
        if ($GLOBALS['fcint_failures'] === $before) {
            echo "sabre/dav wrap=$wrap ignore_user_abort=$ignore: ok\n";
        }
    }
}
fchttp_compare($servers, 'sabre/dav full GET after the aborts', 'dav.php/blob.bin?wrap=icewind', [], ['status' => 200,
    'bytes' => $size, 'sha256' => $blob['sha256'], 'engine' => $size]);
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
readfile ignore_user_abort=0: ok
readfile ignore_user_abort=1: ok
readfile full GET after the aborts: ok
fpassthru ignore_user_abort=0: ok
fpassthru ignore_user_abort=1: ok
fpassthru full GET after the aborts: ok
scts ignore_user_abort=0: ok
scts ignore_user_abort=1: ok
scts full GET after the aborts: ok
sabre/dav wrap=none ignore_user_abort=0: ok
sabre/dav wrap=none ignore_user_abort=1: ok
sabre/dav wrap=icewind ignore_user_abort=0: ok
sabre/dav wrap=icewind ignore_user_abort=1: ok
sabre/dav full GET after the aborts: ok
done
