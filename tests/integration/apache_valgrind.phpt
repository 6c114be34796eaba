--TEST--
Integration: the apache path under valgrind: apache2 -X (Apache and mod_php in one process) in memcheck, stock and override alike: downloads on the path (whole, a range, output around it, sendfile off), two where it declines, a client hang-up; answers as stock, then no memory error and no leak site that stock does not show
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/apache.inc';
if (getenv('FCINT_VALGRIND') === '0') {
    die('skip FCINT_VALGRIND=0');
}
fcap_skipif(['valgrind']);
?>
--FILE--
<?php
require __DIR__ . '/apache.inc';
require __DIR__ . '/truncate.inc';

$odd = fcint_data_file(FCINT_ODD_SIZE);
$size = $odd['size'];
// Above the size under which mod_deflate may hold a whole response (src/sapi/apache.c).
$big = fcint_data_file(20 * 1024 * 1024 + 12345);
$seed = fcint_data_file(64 << 20); // more than the sockets hold before the cut
$tmp = fcint_tmpdir('ap-vg');
$cut = "$tmp/cut.bin";
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['odd' => $odd['path'], 'blob' => $odd['path'],
    'big' => $big['path'], 'cut' => $cut]]);
symlink('.', "$docroot/nosendfile");
symlink('.', "$docroot/deflate");
/** A memory error's kind and stack, without addresses, to match the same error in stock. */
function fcap_valgrind_error_site(string $record): string
{
    $lines = explode("\n", $record);
    $frames = preg_grep('/^\s+(at|by) 0x/', $lines);
    return $lines[0] . "\n" . implode("\n", preg_replace('/^\s+(at|by) 0x[0-9A-F]+: /', '', $frames));
}

$servers = fcap_servers($docroot, $tmp, ['valgrind' => true, 'modules' => ['deflate'],
    'conf' => ["<Location /nosendfile>\n    EnableSendfile Off\n</Location>",
        "<Location /deflate>\n    SetOutputFilter DEFLATE\n</Location>"]]);
$whole = fchttp_expect_slice($odd, 0, $size);

fchttp_download('apache', $servers, 'readfile', ['fn' => 'readfile'], $whole, $size, 'apache', [], 600);
fchttp_download('apache', $servers, 'stream_copy_to_stream offset 4099 length 1 MiB', ['fn' => 'scts', 'off' => 4099,
    'len' => 1 << 20], fchttp_expect_slice($odd, 4099, 1 << 20), 1 << 20, 'apache', [], 600);
fchttp_download('apache', $servers, 'output before and after', ['fn' => 'fpassthru', 'pre' => 'A', 'post' => 'B'],
    fchttp_expect_slice($odd, 0, $size, 'A', 'B'), $size, 'apache', [], 600);
fchttp_download('apache', $servers, 'an ob_start() callback', ['fn' => 'readfile', 'ob' => 'unchunked'], $whole, $size,
    'OUTPUT_HANDLER', [], 600);
fchttp_download('apache', $servers, 'HEAD', ['fn' => 'readfile'], ['status' => 200, 'bytes' => 0], $size, 'HEAD',
    ['method' => 'HEAD'], 600);
fcap_compare($servers, 'EnableSendfile Off', 'nosendfile/send.php?fn=readfile&file=odd', [],
    ['status' => 200, 'bytes' => $size, 'sha256' => $odd['sha256']], $size);
foreach ($servers as $mode => $srv) {
    $c = fchttp_get_and_hang_up($srv->url('abort.php?fn=readfile&ignore=0&log=hangup.log'), 1 << 20);
    if (!str_contains($c['status_line'], ' 200 ')) {
        fcint_fail("hang-up [$mode]: client saw " . json_encode($c));
    }
    @unlink("$tmp/logs/hangup.log");
}
fcap_compare($servers, 'readfile after the hang-up', 'send.php?fn=readfile&file=odd', [],
    ['status' => 200, 'bytes' => $size, 'sha256' => $odd['sha256']], $size);
// A filter that reads the data: the path reads the file and hands over its blocks.
foreach ($servers as $mode => $srv) {
    $r = fcint_run_hash_stdout([fcint_tool('curl'), '-sS', '--compressed', '--max-time', '600',
        $srv->url('deflate/send.php?fn=readfile&file=big')], 610);
    if ($r['sha256'] !== $big['sha256']) {
        fcint_fail("mod_deflate [$mode]: the body does not decode to the file ({$r['bytes']} bytes) {$r['stderr']}");
    }
}
echo "mod_deflate: done\n";
// A file cut while Apache sends it: the path ends the connection (FILE_SHRANK);
// the script ignores aborts, so that it ends as stock's does (a script ended by
// an abort leaves PHP's own allocations unfreed under USE_ZEND_ALLOC=0).
foreach ($servers as $mode => $srv) {
    fctr_refill($cut, $seed, $seed['size']);
    $r = fctr_fetch_while_cut($srv->url('cut.php?fn=readfile&ignore=1&log=cut.json'), $srv->url('stats.php'),
        $cut, 1 << 20, 2 << 20, [], $srv->dir);
    $log = fcint_wait_log("$tmp/logs/cut.json", 120);
    $d = $mode === 'stock' ? null : fc_stats_delta($log['before'] ?? null, $log['after'] ?? null);
    if (!$r['cut'] || fctr_prefix_problem(fctr_read_response($r['head'], $r['raw'])[0], $seed) !== null
            || ($log['reached_end'] ?? false) !== true
            || ($mode !== 'stock' && !isset($d['apache']['fallbacks']['FILE_SHRANK']))) {
        fcint_fail("cut [$mode]: " . json_encode(array_diff_key($r, ['raw' => 1])) . ' ' . json_encode($d['apache'] ?? null));
    }
    @unlink("$tmp/logs/cut.json");
}
echo "cut during the send: done\n";

// Stop (SIGTERM: Apache runs its cleanups and PHP's module shutdown) and judge the logs.
$before = $GLOBALS['fcint_failures'];
$stockSites = [];
foreach ($servers as $mode => $srv) {
    $pid = $srv->pid();
    $srv->stop();
    $files = glob("$srv->dir/vg.*");
    foreach ($files as $file) {
        $r = fcvg_report($file);
        if ($r['pid'] !== $pid) {
            continue; // a helper Apache or PHP started (none expected with -X)
        }
        if (!$r['complete'] || $r['signal'] !== null) {
            fcint_fail("valgrind [$mode]: the log is incomplete or the process was killed\n" . file_get_contents($file));
            continue;
        }
        // Debian's libphp8.2.so (PIC, no valgrind annotations) shows errors of its own
        // at startup (zend_string_equal_val's word-wise compare): judged, like leaks,
        // against the sites stock shows.
        foreach ($r['records'] as $rec) {
            $site = fcvg_leak_site($rec) ?? fcap_valgrind_error_site($rec);
            if ($mode === 'stock') {
                $stockSites[$site] = true;
            } elseif (!isset($stockSites[$site])) {
                fcint_fail("valgrind [$mode]: an error or leak stock Apache + mod_php does not have\n$rec");
            }
        }
    }
    if (!array_filter($files, fn ($f) => fcvg_report($f)['pid'] === $pid)) {
        fcint_fail("valgrind [$mode]: no log of apache2 -X ($pid)\n" . $srv->logs());
    }
}
if ($GLOBALS['fcint_failures'] === $before) {
    echo "valgrind: ok\n";
}
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
readfile: ok
stream_copy_to_stream offset 4099 length 1 MiB: ok
output before and after: ok
an ob_start() callback: ok
HEAD: ok
EnableSendfile Off: ok
readfile after the hang-up: ok
mod_deflate: done
cut during the send: done
valgrind: ok
done
