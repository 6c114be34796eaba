--TEST--
Integration: the apache path when the client hangs up after 1 MiB (readfile, fpassthru, stream_copy_to_stream; ignore_user_abort off and on) and when the file is truncated during the send: connection_aborted()/ignore_user_abort() as stock, the same Apache child then serves whole files; stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/apache.inc'; fcap_skipif();
?>
--FILE--
<?php
require __DIR__ . '/apache.inc';

$blob = fcint_blob();
$size = $blob['size'];
$tmp = fcint_tmpdir('ap-abort');
$cut = "$tmp/cut/cut.bin";
mkdir(dirname($cut), 0755);
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['blob' => $blob['path'], 'cut' => $cut]]);
$servers = fcap_servers($docroot, $tmp);

// What stock mod_php reports once the client is gone: the write that fails marks
// the connection aborted; with ignore_user_abort(false) the script stops there
// (shutdown functions still run); with true it runs on and the copy returns the
// full length, because php://output swallows output once disabled.
$stockWant = [
    0 => ['returned' => null, 'reached_end' => false, 'aborted_after_copy' => null,
        'ignore_user_abort' => false, 'connection_aborted' => 1, 'connection_status' => 1],
    1 => ['returned' => $size, 'reached_end' => true, 'aborted_after_copy' => 1,
        'ignore_user_abort' => true, 'connection_aborted' => 1, 'connection_status' => 1],
];

/** The child that serves (MaxRequestWorkers 1) and its counters. */
function fcap_child(FcapServer $srv): array
{
    $s = fchttp_get_json($srv->url('stats.php'));
    return [$s['pid'] ?? 0, $s['stats'] ?? null];
}

foreach (['readfile', 'fpassthru', 'scts'] as $fn) {
    foreach ([0, 1] as $ignore) {
        $before = $GLOBALS['fcint_failures'];
        foreach ($servers as $mode => $srv) {
            $label = "$fn ignore_user_abort=$ignore [$mode]";
            [$pid0, $s0] = fcap_child($srv);
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
            if ($got != $stockWant[$ignore]) {
                fcint_fail("$label: script saw " . json_encode($got) . ', stock PHP sees ' . json_encode($stockWant[$ignore]));
            }
            [$pid1, $s1] = fcap_child($srv);
            if ($pid0 !== $pid1) {
                fcint_fail("$label: the child changed from $pid0 to $pid1 (it died?)\n" . $srv->logs());
            }
            $d = $mode === 'stock' ? [] : fc_stats_delta($s0, $s1);
            if ($mode !== 'stock' && ($d === null || $d['apache']['bytes'] < (1 << 20))) {
                fcint_fail("$label: the client read 1 MiB, the apache path counted " . json_encode($d));
            }
        }
        if ($GLOBALS['fcint_failures'] === $before) {
            echo "$fn ignore_user_abort=$ignore: ok\n";
        }
    }
    fcap_compare($servers, "$fn full GET after the aborts", "send.php?fn=$fn", [], ['status' => 200,
        'bytes' => $size, 'sha256' => $blob['sha256']], $size);
}

// A file cut to 2 MiB while Apache sends it: stock's read loop ends early; on the
// apache path the child must survive it too (an mmap'ed bucket would die of SIGBUS),
// and serve the next request whole.
foreach ($servers as $mode => $srv) {
    $label = "truncated during the send [$mode]";
    $f = fopen($cut, 'w');
    ftruncate($f, 64 << 20);
    fclose($f);
    chmod($cut, 0644);
    $seed = fopen($blob['path'], 'r');
    $f = fopen($cut, 'r+');
    stream_copy_to_stream($seed, $f, 64 << 20);
    fclose($f);
    fclose($seed);
    [$pid0] = fcap_child($srv);
    [$s, $status, $body] = fchttp_open_get($srv->url('download.php?fn=readfile&file=cut'));
    while ($s && $body < (1 << 20) && !feof($s)) {
        $body += strlen((string) fread($s, 65536));
    }
    $f = fopen($cut, 'r+');
    ftruncate($f, 2 << 20);
    fclose($f);
    while ($s && !feof($s)) {
        $d = fread($s, 65536);
        if ($d === false || ($d === '' && stream_get_meta_data($s)['timed_out'])) {
            fcint_fail("$label: the answer neither ended nor was cut within 30 s");
            break;
        }
    }
    $s && fclose($s);
    [$pid1] = fcap_child($srv);
    if ($pid0 === 0 || $pid0 !== $pid1) {
        fcint_fail("$label: the child changed from $pid0 to $pid1 (it died?)\n" . $srv->logs());
    }
}
echo "truncated during the send: done\n";
fcap_compare($servers, 'full GET after the truncation', 'send.php?fn=readfile', [], ['status' => 200,
    'bytes' => $size, 'sha256' => $blob['sha256']], $size);
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
truncated during the send: done
full GET after the truncation: ok
done
