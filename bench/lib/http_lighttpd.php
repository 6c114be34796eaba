<?php
// The downloads behind lighttpd (Debian's 1.4, mod_fastcgi) in front of PHP-FPM: lighttpd
// sending the file itself (its static download, the floor) against readfile(), sabre/dav's
// GET and Nextcloud's shape on stock PHP, on the override's fastcgi path (on TCP by its own
// splice route, and by the copy route beside it: fastcopy.same_host=copy), and handed back
// to lighttpd (X-Sendfile2), each on a unix-socket and a TCP pool of one worker. The whole
// server is lighttpd (one process) + the worker. Uses the download helpers of http.php.
//
// lighttpd is configured as an operator serving large files through PHP would:
// server.stream-response-body = 2 passes the body on as it comes, reading the backend at
// the client's pace (the default, 0, keeps the whole response, here a gigabyte, in temp
// files before sending any of it). The hand-over's scope adds what tests/handover checks
// exact: x-sendfile on for the data directory, FASTCOPY_HANDOVER declared, and
// server.range-requests = "disable" (the streamed answer PHP gives takes no ranges; the
// file lighttpd would send does).
declare(strict_types=1);

/**
 * lighttpd's configuration for one run: the file under /static/ from the data directory,
 * and one scope per pool, /POOL/ aliased to the scripts.
 */
function lighttpd_conf(string $d, int $port, array $pools, string $scripts, string $file): string
{
    $data = dirname($file);
    $list = static fn (array $kv): string => implode(', ', array_map(fn ($k, $v) => "\"$k\" => \"$v\"", array_keys($kv), $kv));
    $scopes = '';
    foreach ($pools as $name => $p) {
        $backend = str_starts_with($p['addr'], '/') ? ['socket' => $p['addr']]
            : ['host' => '127.0.0.1', 'port' => substr(strrchr($p['addr'], ':'), 1)];
        $env = ['FCBENCH_FILE' => $file, 'FCBENCH_WORK' => $d];
        $more = '';
        if ($p['handover']) {
            $backend['x-sendfile'] = 'enable';
            $env += ['FASTCOPY_HANDOVER' => 'lighttpd', 'FASTCOPY_HANDOVER_DIR' => $data];
            $more = "    server.range-requests = \"disable\"\n";
        }
        $scopes .= "\$HTTP[\"url\"] =~ \"^/$name/\" {\n    alias.url = (\"/$name/\" => \"$scripts/\")\n"
            . '    fastcgi.server = (".php" => ((' . $list($backend + ['check-local' => 'enable'])
            . ($p['handover'] ? ", \"x-sendfile-docroot\" => (\"$data\")" : '') . ")))\n"
            . '    setenv.add-environment = (' . $list($env) . ")\n$more}\n";
    }
    return "# Written by bench/lib/http_lighttpd.php for one run; loopback only.\n"
        . "server.document-root = \"$scripts\"\nserver.bind = \"127.0.0.1\"\nserver.port = $port\n"
        . "server.errorlog = \"$d/lighttpd-error.log\"\nserver.upload-dirs = (\"$d/tmp\")\n"
        . "server.stream-response-body = 2\nserver.modules = (\"mod_alias\", \"mod_setenv\", \"mod_fastcgi\")\n"
        . "mimetype.assign = (\"\" => \"application/octet-stream\")\n"
        . "\$HTTP[\"url\"] =~ \"^/static/\" {\n    alias.url = (\"/static/\" => \"$data/\")\n}\n$scopes";
}

/** Who is measured behind lighttpd: its static download, and each script stock, on the fastcgi path and handed over. */
function lighttpd_contenders(string $name): array
{
    $c = ['lt_static' => ['label' => 'lighttpd static', 'short' => 'lighttpd static', 'url' => "/static/$name", 'pool' => null]];
    foreach (['unix' => ['', 'unix socket'], 'tcp' => ['_tcp', 'TCP']] as $listen => [$sfx, $where]) {
        foreach (download_scripts($name) as $id => [$what, $url, $libs]) {
            $c["lt_$id$sfx"] = ['label' => "$what, stock ($where)", 'short' => "$id stock $listen", 'url' => "/stock$sfx/$url",
                'pool' => "stock$sfx", 'libs' => $libs];
            // As behind nginx: the path's own route (the splice route, on unix and on TCP), and on
            // TCP the copy route (fastcopy.same_host=copy).
            $c["lt_{$id}_ov$sfx"] = ['label' => "$what, override, fastcgi path" . ($listen === 'tcp' ? ', splice route (the default)' : '') . " ($where)",
                'short' => "$id fastcgi $listen", 'url' => "/fc$sfx/$url", 'pool' => "fc$sfx", 'ext' => true, 'override' => true, 'libs' => $libs,
                'base' => "lt_$id$sfx", 'route' => 'splice'];
            if ($listen === 'tcp') {
                $c["lt_{$id}_cp$sfx"] = ['label' => "$what, override, fastcgi path, copy route: fastcopy.same_host=copy ($where)",
                    'short' => "$id copies $listen", 'url' => "/cp$sfx/$url", 'pool' => "cp$sfx", 'ext' => true, 'override' => true,
                    'needs' => 'same_host', 'libs' => $libs, 'base' => "lt_$id$sfx", 'route' => 'writev'];
            }
            $c["lt_{$id}_ho$sfx"] = ['label' => "$what, override, hand-over: X-Sendfile2 ($where)", 'short' => "$id handover $listen",
                'url' => "/ho$sfx/$url", 'pool' => "ho$sfx", 'ext' => true, 'override' => true, 'libs' => $libs, 'base' => "lt_$id$sfx",
                'handover' => true];
        }
    }
    return $c;
}

/** Waits until something listens on 127.0.0.1:$port. */
function wait_port(int $port, string $log): void
{
    for ($i = 0; $i < 500; $i++) {
        if ($s = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 1)) {
            fclose($s);
            return;
        }
        usleep(10000);
    }
    throw new RuntimeException("nothing listens on port $port: " . tail($log));
}

function http_lighttpd_case(array &$cfg): array
{
    $size = $cfg['mode'] === 'smoke' ? MIB : GIB;
    $out = ['size' => $size, 'rows' => []];
    foreach (['/usr/sbin/lighttpd', '/usr/sbin/php-fpm8.2'] as $bin) {
        if (!is_executable($bin)) {
            return $out + ['error' => "$bin not installed (tests/integration/setup.sh installs lighttpd)"];
        }
    }
    $d = $cfg['work'] . '/lighttpd';
    @mkdir("$d/tmp", 0700, true);
    $file = http_data_file($cfg, $size);
    $port = free_port();
    $pools = http_pools($cfg, $d, ['stock', 'fc', 'cp', 'ho']);
    file_put_contents("$d/lighttpd.conf", lighttpd_conf($d, $port, $pools, dirname(__DIR__) . '/cases/http', $file));
    $contenders = lighttpd_contenders(basename($file));
    $libs = fclib_autoload('dav') !== null;
    say(sprintf('%-10s %-12s ', 'lighttpd', human_size($size)));
    $tc = microtime(true);
    return run_http_case('lighttpd', $out, function (array &$out, array &$servers)
            use (&$cfg, $contenders, $d, $file, $libs, $pools, $port, $size, $tc): void {
        $workers = start_pools($cfg, $d, $pools, fpm_ini(), $servers);
        [$servers[], $lighttpd] = start_server(['/usr/sbin/lighttpd', '-D', '-f', "$d/lighttpd.conf"], "$d/lighttpd.out", $cfg);
        wait_port($port, "$d/lighttpd-error.log");
        $base = "http://127.0.0.1:$port";
        $workerOf = static fn (array $c): ?int => $c['pool'] === null ? null : $workers[$c['pool']];
        $rows = [];
        $live = [];
        foreach ($contenders as $id => $c) {
            $na = download_na($c, $pools, $cfg, $libs);
            $rows[$id] = ['runs' => [], 'na' => $na, 'handed_over' => empty($c['handover']) ? null : 0];
            if ($na === null) {
                $live[] = $id;
            }
        }
        for ($rep = $cfg['warmup'] ? -1 : 0; $rep < $cfg['runs']; $rep++) {
            foreach (rotated($live, $rep) as $id) {
                if (isset($rows[$id]['error'])) {
                    continue;
                }
                $c = $contenders[$id];
                $run = download_run($cfg, $c, $lighttpd, $workerOf($c), $base, $size);
                if (is_string($run)) {
                    $rows[$id]['error'] = "$run: " . ($c['pool'] ? tail("$d/fpm-{$c['pool']}.log", 200) : '') . ' ' . tail("$d/lighttpd-error.log", 200);
                    say("  $id: {$rows[$id]['error']}");
                    continue;
                }
                if (!empty($c['handover'])) {
                    $rows[$id]['handed_over']++;
                }
                if ($rep >= 0) {
                    $rows[$id]['runs'][] = $run;
                }
            }
            echo '.';
        }
        download_checks($cfg, $contenders, $live, $rows, $base, $file, $size, $lighttpd, $workerOf, $d);
        say(sprintf(' %.1f s', microtime(true) - $tc));

        foreach ($contenders as $id => $c) {
            $out['rows'][] = [
                ...http_row('http_lighttpd', 'HTTP: lighttpd → PHP-FPM, curl client', $size, $id, $c['label'], $c['short']),
                'listen' => $c['pool'] === null ? null : $pools[$c['pool']]['listen'],
                ...download_figures($rows[$id], $size, 'lighttpd'),
                'cpu_process' => $c['pool'] === null ? 'lighttpd' : 'FPM worker',
            ];
        }
        $byId = array_column($out['rows'], null, 'contender');
        foreach ($out['rows'] as &$r) {
            $b = $byId[$contenders[$r['contender']]['base'] ?? ''] ?? null;
            $r['base'] = $b['short'] ?? null;
            $r['vs_stock'] = row_ratio($r, $b, 'wall_median', true);
            $r['cpu_vs_stock'] = row_ratio($r, $b, 'cpu_per_gib');
            $r['vs_ref'] = null;
            // The whole server against lighttpd sending the same file itself, in this run.
            $r['server_vs_static'] = row_ratio($r, $byId['lt_static'], 'server_cpu_per_gib');
        }
        unset($r);
    });
}
