--TEST--
Integration: request_terminate_timeout ends a fastcgi-path download stuck on a stalled client, on a pm=dynamic pool, as it ends stock's; the next worker proves the request layout again and serves whole files; stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/harness.inc'; fcint_skipif(['nginx', 'fpm', 'curl']);
?>
--FILE--
<?php
require __DIR__ . '/nginx_fpm.inc';

/**
 * Starts a GET, reads the head and 1 MiB of body, then stops reading until FPM
 * says it terminated the request (nginx buffers in memory only, so the worker
 * is stuck in its write to nginx by then), then reads to the end.
 * Returns [status line, body bytes, whether FPM terminated it, the system call
 * the worker $pid was blocked in meanwhile].
 */
function stalled_get(FcfpmStack $srv, string $path, int $pid): array
{
    [$s, $status, $body] = fchttp_open_get($srv->url($path));
    if (!$s) {
        return [$status, 0, false, null];
    }
    stream_set_timeout($s, 60);
    $body += strlen(fread($s, 1 << 20));
    $blocked = null;
    for ($i = 0; $i < 20 && $blocked === null; $i++) {
        usleep(100000);
        $blocked = syscall_name((string) @file_get_contents("/proc/$pid/syscall"));
    }
    $seen = substr_count($srv->logs(), 'execution timed out');
    $terminated = false;
    for ($deadline = microtime(true) + 60; microtime(true) < $deadline && !$terminated; usleep(100000)) {
        $terminated = substr_count($srv->logs(), 'execution timed out') > $seen;
    }
    while (!feof($s) && ($d = fread($s, 1 << 20)) !== false && $d !== '') {
        $body += strlen($d);
    }
    fclose($s);
    return [$status, $body, $terminated, $blocked];
}

/** write or splice, from /proc/PID/syscall's first field ("running" while on a CPU). */
function syscall_name(string $line): ?string
{
    $numbers = ['x86_64' => ['1' => 'write', '275' => 'splice'], 'aarch64' => ['64' => 'write', '76' => 'splice']];
    $nr = strtok($line, ' ');
    return $numbers[php_uname('m')][$nr] ?? null;
}

$blob = fcint_blob();
$odd = fcint_data_file(FCINT_ODD_SIZE);
$tmp = fcint_tmpdir('fcgi-terminate');
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['odd' => $odd['path'], 'blob' => $blob['path']]]);
$servers = fcfpm_stacks($docroot, $tmp, ['pool' => ['pm = dynamic', 'pm.max_children = 1', 'pm.start_servers = 1',
    'pm.min_spare_servers = 1', 'pm.max_spare_servers = 1', 'request_terminate_timeout = 3s']]);
$whole = fchttp_expect_slice($odd, 0, $odd['size']);

fchttp_download('fastcgi', $servers, 'readfile before', ['fn' => 'readfile'], $whole, $odd['size'], 'fastcgi');
foreach (['readfile', 'scts'] as $fn) {
    $before = $GLOBALS['fcint_failures'];
    foreach ($servers as $mode => $srv) {
        $pid0 = fchttp_get_json($srv->url('stats.php'))['pid'] ?? 0;
        [$status, $body, $terminated, $blocked] = stalled_get($srv, "/download.php?fn=$fn&file=blob&log=stalled-$fn-$mode.json", $pid0);
        if (!str_contains($status, ' 200 ') || !$terminated || $body >= $blob['size']) {
            fcint_fail("$fn stalled [$mode]: status '$status', $body of {$blob['size']} bytes, FPM "
                . ($terminated ? 'terminated it' : 'never terminated it') . "\n" . $srv->logs());
        }
        // Stock's worker waits in FPM's write(); the override's in the fastcgi path's splice().
        $want = $mode === 'stock' ? 'write' : 'splice';
        if (isset(['x86_64' => 1, 'aarch64' => 1][php_uname('m')]) && $blocked !== $want) {
            fcint_fail("$fn stalled [$mode]: the worker was blocked in " . ($blocked ?? 'no known call') . ", not $want");
        }
        $pid1 = fchttp_get_json($srv->url('stats.php'))['pid'] ?? 0;
        if ($pid1 === 0 || $pid1 === $pid0) {
            fcint_fail("$fn stalled [$mode]: the terminated worker $pid0 was not replaced (now $pid1)");
        }
        // The next request finds the log of the terminated one unwritten: it never reached shutdown.
        if (is_file(dirname($srv->docroot) . "/logs/stalled-$fn-$mode.json")) {
            fcint_fail("$fn stalled [$mode]: the terminated script logged as if it had finished");
        }
    }
    if ($GLOBALS['fcint_failures'] === $before) {
        echo "$fn stalled until request_terminate_timeout: ok\n";
    }
    // A fresh worker: the guard is proven again, the path carries whole files.
    fchttp_download('fastcgi', $servers, "$fn after the timeout", ['fn' => $fn], $whole, $odd['size'], 'fastcgi');
}
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
readfile before: ok
readfile stalled until request_terminate_timeout: ok
readfile after the timeout: ok
scts stalled until request_terminate_timeout: ok
scts after the timeout: ok
done
