<?php
// The HTTP case: nginx serving a file itself (sendfile on) against PHP-FPM
// behind it sending the same file through php://output. curl is the client;
// the figure that matters is the FPM worker's CPU seconds per GiB served.
// Everything listens on 127.0.0.1 or unix sockets in the scratch directory,
// with configs written there; nothing under /etc is read or touched.
declare(strict_types=1);

// Where the real sabre/dav and icewind/streams are, and the extensions they need under -n.
require_once dirname(__DIR__, 2) . '/tests/integration/libs.inc';

function free_port(): int
{
    $s = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
    $port = (int) substr(strrchr(stream_socket_get_name($s, false), ':'), 1);
    fclose($s);
    return $port;
}

/** @return int[] pids whose parent is $pid */
function child_pids(int $pid): array
{
    $kids = [];
    foreach (glob('/proc/[0-9]*/stat') as $f) {
        $s = @file_get_contents($f);
        // The command name is in parentheses and may hold spaces: split after it.
        if ($s && preg_match('/\) \S (\d+)/', $s, $m) && (int) $m[1] === $pid) {
            $kids[] = (int) basename(dirname($f));
        }
    }
    sort($kids);
    return $kids;
}

/** utime+stime of a process, in seconds. */
function proc_cpu(int $pid): float
{
    $s = (string) @file_get_contents("/proc/$pid/stat");
    $f = explode(' ', substr($s, strrpos($s, ')') + 2));
    // Fields 14 and 15 of stat(5); $f starts at field 3.
    return ((int) ($f[11] ?? 0) + (int) ($f[12] ?? 0)) / (int) trim((string) shell_exec('getconf CLK_TCK'));
}

/** Starts a server under timeout(1) so it can't outlive us; returns [proc, main pid]. */
function start_server(array $cmd, string $log, array $cfg): array
{
    $p = proc_open(['timeout', '-k', '5', '3600', ...$cmd], [0 => ['file', '/dev/null', 'r'], 1 => ['file', $log, 'a'], 2 => ['file', $log, 'a']], $pipes);
    $tpid = proc_get_status($p)['pid'];
    file_put_contents($cfg['work'] . '/pids', "$tpid\n", FILE_APPEND);
    for ($i = 0; $i < 300; $i++) {
        if ($kids = child_pids($tpid)) {
            return [$p, $kids[0]];
        }
        usleep(10000);
    }
    throw new RuntimeException("{$cmd[0]} did not start: " . tail($log));
}

/** The single worker of a master (pm=static, 1 child; nginx worker_processes 1). */
function wait_worker(int $master, string $log): int
{
    for ($i = 0; $i < 500; $i++) {
        if ($kids = child_pids($master)) {
            return $kids[0];
        }
        usleep(10000);
    }
    throw new RuntimeException('no worker process: ' . tail($log));
}

function wait_path(string $path, string $log): void
{
    for ($i = 0; $i < 500 && !file_exists($path); $i++) {
        usleep(10000);
    }
    if (!file_exists($path)) {
        throw new RuntimeException("$path never appeared: " . tail($log));
    }
}

function fpm_conf(string $d, string $name): string
{
    return <<<INI
    [global]
    pid = $d/fpm-$name.pid
    error_log = $d/fpm-$name.log
    daemonize = no

    [bench]
    listen = $d/fpm-$name.sock
    pm = static
    pm.max_children = 1
    pm.max_requests = 0
    request_terminate_timeout = 600
    catch_workers_output = yes
    clear_env = no

    INI;
}

function nginx_conf(string $d, int $port, string $file, string $scripts): string
{
    $fcgi = '';
    foreach (['stock', 'fc'] as $pool) {
        $fcgi .= <<<CONF
                location ~ ^/$pool/(\\w+)\\.php(/.*)?\$ {
                    fastcgi_pass unix:$d/fpm-$pool.sock;
                    fastcgi_param SCRIPT_FILENAME $scripts/\$1.php;
                    fastcgi_param SCRIPT_NAME /$pool/\$1.php;
                    fastcgi_param PATH_INFO \$2;
                    fastcgi_param REQUEST_URI \$request_uri;
                    fastcgi_param REQUEST_METHOD \$request_method;
                    fastcgi_param QUERY_STRING \$query_string;
                    fastcgi_param SERVER_PROTOCOL \$server_protocol;
                    fastcgi_param FCBENCH_FILE $file;
                    fastcgi_param FCBENCH_STATS $d/stats-$pool-\$1.json;
                    fastcgi_param FCBENCH_WORK $d;
                    # Production-like buffering, but never spill to a temp file.
                    fastcgi_buffers 64 64k;
                    fastcgi_max_temp_file_size 0;
                    fastcgi_read_timeout 600s;
                }

        CONF;
    }
    return <<<CONF
    # Written by bench/lib/http.php for one run; loopback only.
    user root;
    worker_processes 1;
    daemon off;
    pid $d/nginx.pid;
    error_log $d/nginx-error.log warn;
    events { worker_connections 64; }
    http {
        access_log off;
        client_body_temp_path $d/tmp/body;
        fastcgi_temp_path $d/tmp/fastcgi;
        proxy_temp_path $d/tmp/proxy;
        uwsgi_temp_path $d/tmp/uwsgi;
        scgi_temp_path $d/tmp/scgi;
        sendfile on;
        tcp_nopush on;
        default_type application/octet-stream;
        server {
            listen 127.0.0.1:$port;
            location = /static/file.bin { alias $file; }
    $fcgi    }
    }

    CONF;
}

function http_case(array &$cfg): array
{
    $size = $cfg['mode'] === 'smoke' ? MIB : GIB;
    $out = ['size' => $size, 'rows' => []];
    foreach (['/usr/sbin/nginx', '/usr/sbin/php-fpm8.2'] as $bin) {
        if (!is_executable($bin)) {
            return $out + ['error' => "$bin not installed (bench/run --full or --http installs it)"];
        }
    }
    if (trim((string) shell_exec('command -v curl')) === '') {
        return $out + ['error' => 'curl not installed'];
    }
    $d = $cfg['work'] . '/http';
    @mkdir("$d/tmp", 0700, true);
    $file = $cfg['work'] . "/src-$size.bin";
    $name = basename($file);
    make_file($file, $size);
    warm_file($file);
    $port = free_port();
    $scripts = dirname(__DIR__) . '/cases/http';
    file_put_contents("$d/nginx.conf", nginx_conf($d, $port, $file, $scripts));

    // Who is measured, through which URL, and whose CPU counts.
    $contenders = [
        'nginx' => ['label' => 'nginx static (sendfile on)', 'short' => 'nginx static', 'url' => '/static/file.bin', 'proc' => 'nginx'],
        'stock' => ['label' => 'FPM: stream_copy_to_stream → php://output (stock)', 'short' => 'FPM stock s_c_t_s', 'url' => '/stock/stock_copy.php', 'proc' => 'stock'],
        'readfile' => ['label' => 'FPM: readfile (stock)', 'short' => 'FPM readfile', 'url' => '/stock/readfile.php', 'proc' => 'stock'],
        'fastcopy' => ['label' => 'FPM: fastcopy_stream → php://output', 'short' => 'FPM fastcopy_stream', 'url' => '/fc/fastcopy.php', 'proc' => 'fc', 'ext' => true, 'base' => 'stock'],
        'readfile_ov' => ['label' => 'FPM: readfile, fastcopy.override=1', 'short' => 'FPM readfile+override', 'url' => '/fc/readfile.php', 'proc' => 'fc', 'ext' => true, 'override' => true, 'base' => 'readfile'],
        'dav' => ['label' => 'FPM: sabre/dav 4.7 GET (sabre/http 5.1.12, stock)', 'short' => 'FPM sabre/dav', 'url' => "/stock/dav.php/$name", 'proc' => 'stock', 'libs' => true],
        'dav_ov' => ['label' => 'FPM: sabre/dav 4.7 GET, fastcopy.override=1', 'short' => 'FPM sabre/dav+override', 'url' => "/fc/dav.php/$name", 'proc' => 'fc', 'ext' => true, 'override' => true, 'libs' => true, 'base' => 'dav'],
        'nextcloud' => ['label' => 'FPM: sabre/dav GET + icewind CallbackWrapper (Nextcloud shape, stock)', 'short' => 'FPM Nextcloud shape', 'url' => "/stock/nextcloud.php/$name", 'proc' => 'stock', 'libs' => true],
        'nextcloud_ov' => ['label' => 'FPM: sabre/dav GET + CallbackWrapper, fastcopy.override=1', 'short' => 'FPM Nextcloud shape+override', 'url' => "/fc/nextcloud.php/$name", 'proc' => 'fc', 'ext' => true, 'override' => true, 'libs' => true, 'base' => 'nextcloud'],
    ];
    // The sabre/dav rows run the real libraries, which tests/integration/setup.sh installs.
    $libs = fcint_autoload('dav') !== null;
    $servers = [];
    say(sprintf('%-10s %-12s ', 'http', human_size($size)));
    $tc = microtime(true);
    try {
        // Two FPM masters: stock without the extension, fc with it (and the
        // override when built). output_buffering as in php.ini-production.
        $fpmIni = ['-d', 'memory_limit=128M', '-d', 'output_buffering=4096'];
        foreach (fcint_lib_ini() as $line) {
            array_push($fpmIni, '-d', $line);
        }
        $pools = ['stock' => []];
        if ($cfg['ext'] !== '') {
            $pools['fc'] = ['-d', 'extension=' . $cfg['ext'], ...($cfg['override'] ? ['-d', 'fastcopy.override=1'] : [])];
        }
        $workers = [];
        foreach ($pools as $name => $extra) {
            file_put_contents("$d/fpm-$name.conf", fpm_conf($d, $name));
            $log = "$d/fpm-$name.out";
            [$p, $master] = start_server(['/usr/sbin/php-fpm8.2', '-n', '-R', '-F', '-y', "$d/fpm-$name.conf", ...$fpmIni, ...$extra], $log, $cfg);
            $servers[] = $p;
            wait_path("$d/fpm-$name.sock", $log);
            $workers[$name] = wait_worker($master, $log);
        }
        [$p, $master] = start_server(['/usr/sbin/nginx', '-p', "$d/", '-c', "$d/nginx.conf", '-e', "$d/nginx-error.log"], "$d/nginx.out", $cfg);
        $servers[] = $p;
        wait_path("$d/nginx.pid", "$d/nginx-error.log");
        $workers['nginx'] = wait_worker($master, "$d/nginx-error.log");

        $rows = [];
        $live = [];
        foreach ($contenders as $id => $c) {
            $na = match (true) {
                !empty($c['ext']) && $cfg['ext'] === '' => 'n/a (extension not built)',
                !empty($c['override']) && !$cfg['override'] => 'n/a (override not built)',
                !empty($c['libs']) && !$libs => 'n/a (sabre/dav not installed: tests/integration/setup.sh)',
                default => null,
            };
            $rows[$id] = ['runs' => [], 'na' => $na];
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
                $pid = $workers[$c['proc']];
                wait_quiet($cfg);
                $cpu0 = proc_cpu($pid);
                $res = trim((string) shell_exec(sprintf('curl -s -o /dev/null --max-time 300 -w %s %s 2>&1',
                    escapeshellarg('%{http_code} %{size_download} %{time_total}'), escapeshellarg("http://127.0.0.1:$port{$c['url']}"))));
                $cpu1 = proc_cpu($pid);
                [$code, $bytes, $time] = explode(' ', $res . '  ');
                if ($code !== '200' || (int) $bytes !== $size) {
                    $rows[$id]['error'] = "HTTP $code, $bytes bytes (expected $size): " . tail("$d/fpm-{$c['proc']}.log", 200) . ' ' . tail("$d/nginx-error.log", 200);
                    say("  $id: {$rows[$id]['error']}");
                    continue;
                }
                if ($rep >= 0) {
                    $rows[$id]['runs'][] = ['wall' => (float) $time, 'bytes' => (int) $bytes, 'cpu' => $cpu1 - $cpu0];
                }
            }
            echo '.';
        }
        say(sprintf(' %.1f s', microtime(true) - $tc));

        foreach ($contenders as $id => $c) {
            $r = $rows[$id];
            $walls = array_column($r['runs'], 'wall');
            $bytes = array_sum(array_column($r['runs'], 'bytes'));
            $script = preg_match('#/(\w+)\.php#', $c['url'], $m) ? $m[1] : '';
            $stats = @file_get_contents("$d/stats-{$c['proc']}-$script.json");
            $out['rows'][] = [
                'case' => 'http',
                'case_label' => 'HTTP: nginx → PHP-FPM, curl client',
                'size' => $size,
                'count' => null,
                'contender' => $id,
                'label' => $c['label'],
                'short' => $c['short'],
                ...row_timing($r, $walls, $size),
                'cpu_median' => $cpuMedian = median(array_column($r['runs'], 'cpu')),
                // The median run, like the times (one request that met a busy
                // machine can double its CPU); summed over all runs when a run
                // is only a few of /proc's 10 ms ticks.
                'cpu_per_gib' => !$bytes ? null : ($cpuMedian >= 0.1
                    ? $cpuMedian / ($size / GIB) : array_sum(array_column($r['runs'], 'cpu')) / ($bytes / GIB)),
                'cpu_process' => $c['proc'] === 'nginx' ? 'nginx worker' : 'FPM worker',
                'maxrss_kb' => null,
                'syscalls' => null,
                'engine' => $stats ? json_decode($stats, true) : null,
                'walls' => $walls,
            ];
        }
        // Each engine row is compared with the same code on stock PHP ('base');
        // the stock rows, with stock stream_copy_to_stream.
        $byId = array_column($out['rows'], null, 'contender');
        foreach ($out['rows'] as &$r) {
            $base = $byId[$contenders[$r['contender']]['base'] ?? 'stock'] ?? null;
            $ok = $base && $base['status'] === 'ok' && $r['status'] === 'ok';
            $r['base'] = $base['short'] ?? null;
            $r['vs_stock'] = $ok ? $base['wall_median'] / $r['wall_median'] : null;
            $r['cpu_vs_stock'] = $ok && $base['cpu_per_gib'] > 0 ? $r['cpu_per_gib'] / $base['cpu_per_gib'] : null;
            $r['vs_ref'] = null;
        }
        unset($r);
    } catch (Throwable $e) {
        $out['error'] = $e->getMessage();
        say("  http: {$e->getMessage()}");
    } finally {
        foreach (array_reverse($servers) as $p) {
            proc_terminate($p);
            proc_close($p);
        }
    }
    return $out;
}
