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

/**
 * CPU seconds a process has used: the scheduler's nanosecond count from
 * /proc/PID/schedstat (user + system), else utime+stime from stat in clock ticks
 * (10 ms: a tenth of what the fastcgi path spends on a GiB).
 */
function proc_cpu(int $pid): float
{
    $ss = @file_get_contents("/proc/$pid/schedstat");
    if ($ss !== false && preg_match('/^(\d+) /', $ss, $m)) {
        return (int) $m[1] / 1e9;
    }
    $s = (string) @file_get_contents("/proc/$pid/stat");
    $f = explode(' ', substr($s, strrpos($s, ')') + 2));
    // Fields 14 and 15 of stat(5); $f starts at field 3.
    return ((int) ($f[11] ?? 0) + (int) ($f[12] ?? 0)) / (int) trim((string) shell_exec('getconf CLK_TCK'));
}

/**
 * Waits until the processes have stopped using CPU (up to 2 s): curl has all
 * the bytes before the worker has finished its request, and the end of the
 * request belongs to the request's cost.
 */
function settle(array $pids): void
{
    $last = array_map('proc_cpu', $pids);
    for ($i = 0; $i < 100; $i++) {
        usleep(20000);
        $now = array_map('proc_cpu', $pids);
        if ($now === $last) {
            return;
        }
        $last = $now;
    }
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

/** $listen: a unix socket path or 127.0.0.1:PORT. */
function fpm_conf(string $d, string $name, string $listen): string
{
    return <<<INI
    [global]
    pid = $d/fpm-$name.pid
    error_log = $d/fpm-$name.log
    daemonize = no

    [bench]
    listen = $listen
    pm = static
    pm.max_children = 1
    pm.max_requests = 0
    request_terminate_timeout = 600
    catch_workers_output = yes
    clear_env = no

    INI;
}

/**
 * nginx's configuration for one run: one worker, loopback only, every temp path
 * in the scratch directory $d, no access log. $http: more lines for the http
 * block; $locations: the server's location blocks, one per FPM pool, each
 * `location ~ ^/POOL/$script { fastcgi_pass POOL'S ADDRESS; $params...; $directives... }`
 * (SCRIPT_FILENAME and SCRIPT_NAME from the pool and the script, and the pool's own
 * directives after $directives), plus $static.
 *
 * @param array<string, array{addr: string, directives?: string[]}> $pools
 */
function nginx_conf(string $d, int $port, array $http, array $pools, string $scripts, string $script,
    array $params, array $directives, string $static = ''): string
{
    $lines = static fn (array $l, string $indent): string => implode('', array_map(fn ($x) => "$indent$x\n", $l));
    $locations = '';
    foreach ($pools as $pool => $p) {
        $pass = str_starts_with($p['addr'], '/') ? "unix:{$p['addr']}" : $p['addr'];
        $param = ["SCRIPT_FILENAME $scripts/\$1.php", "SCRIPT_NAME /$pool/\$1.php"];
        foreach ($params as $name => $value) {
            $param[] = "$name " . str_replace('{pool}', $pool, $value);
        }
        $locations .= "        location ~ ^/$pool/(\\w+)\\.php$script {\n            fastcgi_pass $pass;\n"
            . $lines(array_map(fn ($x) => "fastcgi_param $x;", $param), '            ')
            . $lines(array_map(fn ($x) => "$x;", [...$directives, ...$p['directives'] ?? []]), '            ') . "        }\n";
    }
    return "# Written by bench/lib/http.php for one run; loopback only.\nuser root;\nworker_processes 1;\ndaemon off;\n"
        . "pid $d/nginx.pid;\nerror_log $d/nginx-error.log warn;\nevents { worker_connections 64; }\nhttp {\n"
        . "    access_log off;\n    client_body_temp_path $d/tmp/body;\n    fastcgi_temp_path $d/tmp/fastcgi;\n"
        . "    proxy_temp_path $d/tmp/proxy;\n    uwsgi_temp_path $d/tmp/uwsgi;\n    scgi_temp_path $d/tmp/scgi;\n"
        . $lines(array_map(fn ($x) => "$x;", $http), '    ')
        . "    server {\n        listen 127.0.0.1:$port;\n$static$locations    }\n}\n";
}

/**
 * Runs an HTTP case's measurements: $measure fills $out and lists in $servers the
 * servers it starts. An exception that stops it becomes the case's error; the
 * servers stop either way, the last started first.
 */
function run_http_case(string $name, array $out, callable $measure): array
{
    $servers = [];
    try {
        $measure($out, $servers);
    } catch (Throwable $e) {
        $out['error'] = $e->getMessage();
        say("  $name: {$e->getMessage()}");
    } finally {
        stop_servers($servers);
    }
    return $out;
}

/** The first fields of an HTTP case's row: which case, size and contender. */
function http_row(string $case, string $caseLabel, int $size, string $id, string $label, string $short): array
{
    return ['case' => $case, 'case_label' => $caseLabel, 'size' => $size, 'count' => null, 'contender' => $id,
        'label' => $label, 'short' => $short];
}

/** Stops the servers of a case, the last started first. */
function stop_servers(array $servers): void
{
    foreach (array_reverse($servers) as $p) {
        proc_terminate($p);
        proc_close($p);
    }
}

/**
 * The FPM masters, one worker each: stock without the extension; with it and
 * the override, once on the output-layer path (fastcgi switched off: what
 * fastcopy did before the fastcgi path) and once with every path. Each on a
 * unix socket (Debian's default pool) and on TCP.
 */
function http_pools(array $cfg, string $d): array
{
    $pools = [];
    foreach (['unix' => '', 'tcp' => '_tcp'] as $listen => $sfx) {
        foreach (['stock' => null, 'layer' => ['fastcopy.disable=fastcgi'], 'fc' => []] as $kind => $ini) {
            if ($ini !== null && $cfg['ext'] === '') {
                continue;
            }
            $args = [];
            if ($ini !== null) {
                $ini = ['extension=' . $cfg['ext'], ...($cfg['override'] ? ['fastcopy.override=1'] : []), ...$ini];
                foreach ($ini as $line) {
                    array_push($args, '-d', $line);
                }
            }
            $pools["$kind$sfx"] = ['listen' => $listen, 'args' => $args,
                'addr' => $listen === 'unix' ? "$d/fpm-$kind$sfx.sock" : '127.0.0.1:' . free_port()];
        }
    }
    return $pools;
}

/**
 * Who is measured, through which URL, in which pool. 'base' is the same code
 * on stock PHP; 'layer' the same code with the override on the output-layer
 * path, which the fastcgi rows' server CPU is compared with.
 */
function http_contenders(string $name): array
{
    $c = ['nginx' => ['label' => 'nginx static (sendfile on)', 'short' => 'nginx static', 'url' => '/static/file.bin', 'pool' => null]];
    $scripts = [
        'readfile' => ['readfile()', 'readfile.php', false],
        'dav' => ['sabre/dav 4.7 GET (sabre/http 5.1.12)', "dav.php/$name", true],
        // Nextcloud's shape: the body behind icewind's CallbackWrapper (close callback only).
        'nextcloud' => ['sabre/dav GET + CallbackWrapper (Nextcloud shape)', "nextcloud.php/$name", true],
    ];
    foreach (['unix' => '', 'tcp' => '_tcp'] as $listen => $sfx) {
        $where = $listen === 'unix' ? 'unix socket' : 'TCP';
        if ($listen === 'unix') {
            $c['stock'] = ['label' => 'stream_copy_to_stream → php://output (stock)', 'short' => 'stock s_c_t_s', 'url' => '/stock/stock_copy.php', 'pool' => 'stock'];
            $c['fastcopy'] = ['label' => 'fastcopy_stream → php://output', 'short' => 'fastcopy_stream', 'url' => '/fc/fastcopy.php', 'pool' => 'fc', 'ext' => true, 'base' => 'stock'];
        }
        foreach ($scripts as $id => [$what, $url, $libs]) {
            $c["$id$sfx"] = ['label' => "$what, stock ($where)", 'short' => "$id stock $listen", 'url' => "/stock$sfx/$url", 'pool' => "stock$sfx", 'libs' => $libs];
            $c["{$id}_layer$sfx"] = ['label' => "$what, override, output layer: fastcopy.disable=fastcgi ($where)", 'short' => "$id layer $listen",
                'url' => "/layer$sfx/$url", 'pool' => "layer$sfx", 'ext' => true, 'override' => true, 'libs' => $libs, 'base' => "$id$sfx"];
            $c["{$id}_ov$sfx"] = ['label' => "$what, override, fastcgi path ($where)", 'short' => "$id fastcgi $listen",
                'url' => "/fc$sfx/$url", 'pool' => "fc$sfx", 'ext' => true, 'override' => true, 'libs' => $libs, 'base' => "$id$sfx", 'layer' => "{$id}_layer$sfx",
                'ref' => $listen === 'unix' ? 'cref' : 'cref_tcp'];
        }
    }
    // The floor: the fastcgi path's syscalls in C, no PHP, into the bench's drain.
    foreach (['unix' => 'unix socket', 'tcp' => 'TCP'] as $listen => $where) {
        $c[$listen === 'unix' ? 'cref' : 'cref_tcp'] = ['label' => "C: the fastcgi path's syscalls without PHP (fcref fastcgi → drain, $where)",
            'short' => "C fastcgi $listen", 'url' => null, 'pool' => null, 'cref' => $listen,
            'base' => $listen === 'unix' ? 'readfile' : 'readfile_tcp'];
    }
    // The Nextcloud shape as the override served it before it saw through the
    // wrapper: every byte through the wrapper's stream_read() (fastcopy.disable=wrappers).
    foreach (['unix' => ['', 'unix socket'], 'tcp' => ['_tcp', 'TCP']] as $listen => [$sfx, $where]) {
        $c["nextcloud_through$sfx"] = ['label' => "sabre/dav GET + CallbackWrapper, override through the wrapper: fastcopy.disable=wrappers ($where)",
            'short' => "nextcloud through $listen", 'url' => "/fc$sfx/nextcloud.php/$name?disable=wrappers", 'pool' => "fc$sfx",
            'ext' => true, 'override' => true, 'libs' => true, 'base' => "nextcloud$sfx"];
    }
    return $c;
}

/** One request through curl: [HTTP code, bytes, seconds]. */
function http_get(string $url): array
{
    $res = trim((string) shell_exec(sprintf('curl -s -o /dev/null --max-time 300 -w %s %s 2>&1',
        escapeshellarg('%{http_code} %{size_download} %{time_total}'), escapeshellarg($url))));
    [$code, $bytes, $time] = explode(' ', $res . '  ');
    return [$code, (int) $bytes, (float) $time];
}

/** Attaches `strace -c` to a running process; returns [proc, summary file]. */
function strace_attach(int $pid, string $out): array
{
    $p = proc_open(['strace', '-c', '-f', '-o', $out, '-p', (string) $pid], [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', "$out.err", 'w']], $pipes);
    // Attached once the kernel names a tracer for it.
    for ($i = 0; $i < 500; $i++) {
        if (preg_match('/^TracerPid:\s*[1-9]/m', (string) @file_get_contents("/proc/$pid/status"))) {
            return [$p, $out];
        }
        usleep(10000);
    }
    proc_terminate($p);
    throw new RuntimeException("strace did not attach to $pid: " . tail("$out.err"));
}

/** Detaches (SIGINT makes strace write its table) and reads the calls: ['total' => n, 'by_name' => top 3]. */
function strace_detach(array $t): ?array
{
    [$p, $out] = $t;
    proc_terminate($p, 2);
    proc_close($p);
    $names = [];
    $total = null;
    foreach (file($out) ?: [] as $line) {
        // % time, seconds, usecs/call, calls, [errors], syscall
        if (preg_match('/^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)\s*$/', $line, $m)) {
            if ($m[2] === 'total') {
                $total = (int) $m[1];
            } else {
                $names[$m[2]] = (int) $m[1];
            }
        }
    }
    arsort($names);
    return $total === null ? null : ['total' => $total, 'by_name' => array_slice($names, 0, 3, true)];
}

/**
 * One run of the C floor: fcref's fastcgi mode into a drain. What the drain
 * counted must be the payload plus one 8-byte header per record.
 * Returns a run (its CPU is the sender's: user + system) or an error.
 */
function cref_run(array $cfg, array $drain, string $file, int $size, string $d): array|string
{
    $report = "$d/cref.json";
    @unlink($report);
    @unlink($drain['countfile']);
    $dst = isset($drain['port']) ? 'tcp:127.0.0.1:' . $drain['port'] : 'unix:' . $drain['sock'];
    $p = proc_open(['timeout', '-k', '5', (string) $cfg['run_timeout'], $cfg['bin'] . '/fcref', 'fastcgi', "src=$file", "dst=$dst", "report=$report"],
        [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', "$d/cref.err", 'w']], $pipes);
    proc_close($p);
    $r = json_decode((string) @file_get_contents($report), true);
    if (!is_array($r) || empty($r['ok'])) {
        return 'fcref failed: ' . tail("$d/cref.err");
    }
    $expect = $size + 8 * intdiv($size + 0xfff7, 0xfff8);
    // The drain writes its count when the sender's connection closes.
    for ($i = 0; $i < 500 && !is_file($drain['countfile']); $i++) {
        usleep(10000);
    }
    $got = (int) @file_get_contents($drain['countfile']);
    if ((int) $r['bytes'] !== $size || $got !== $expect) {
        return "fcref sent {$r['bytes']} payload bytes, the drain got $got (expected $size and $expect)";
    }
    $cpu = $r['utime'] + $r['stime'];
    return ['wall' => $r['wall'], 'bytes' => $size, 'cpu' => $cpu, 'nginx_cpu' => null, 'server_cpu' => $cpu];
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
    make_file($file, $size);
    warm_file($file);
    $port = free_port();
    $pools = http_pools($cfg, $d);
    // Production-like buffering, but never spill to a temp file.
    file_put_contents("$d/nginx.conf", nginx_conf($d, $port, ['sendfile on', 'tcp_nopush on',
        'default_type application/octet-stream'], $pools, dirname(__DIR__) . '/cases/http', '(/.*)?$', [
            'PATH_INFO' => '$2', 'REQUEST_URI' => '$request_uri', 'REQUEST_METHOD' => '$request_method',
            'QUERY_STRING' => '$query_string', 'SERVER_PROTOCOL' => '$server_protocol', 'FCBENCH_FILE' => $file,
            'FCBENCH_STATS' => "$d/stats-{pool}-\$1.json", 'FCBENCH_WORK' => $d,
        ], ['fastcgi_buffers 64 64k', 'fastcgi_max_temp_file_size 0', 'fastcgi_read_timeout 600s'],
        "        location = /static/file.bin { alias $file; }\n"));
    $contenders = http_contenders(basename($file));
    // The sabre/dav rows run the real libraries, which tests/integration/setup.sh installs.
    $libs = fclib_autoload('dav') !== null;
    $servers = [];
    say(sprintf('%-10s %-12s ', 'http', human_size($size)));
    $tc = microtime(true);
    try {
        // output_buffering as in php.ini-production.
        $fpmIni = ['-d', 'memory_limit=128M', '-d', 'output_buffering=4096'];
        foreach (fclib_ini() as $line) {
            array_push($fpmIni, '-d', $line);
        }
        $workers = [];
        foreach ($pools as $name => $pool) {
            file_put_contents("$d/fpm-$name.conf", fpm_conf($d, $name, $pool['addr']));
            $log = "$d/fpm-$name.out";
            [$p, $master] = start_server(['/usr/sbin/php-fpm8.2', '-n', '-R', '-F', '-y', "$d/fpm-$name.conf", ...$fpmIni, ...$pool['args']], $log, $cfg);
            $servers[] = $p;
            $workers[$name] = wait_worker($master, $log);
        }
        [$p, $master] = start_server(['/usr/sbin/nginx', '-p', "$d/", '-c', "$d/nginx.conf", '-e', "$d/nginx-error.log"], "$d/nginx.out", $cfg);
        $servers[] = $p;
        foreach (['unix', 'tcp'] as $listen) {
            $drains[$listen] = start_receivers(['dst' => $listen], $cfg);
        }
        wait_path("$d/nginx.pid", "$d/nginx-error.log");
        $nginx = wait_worker($master, "$d/nginx-error.log");
        $base = "http://127.0.0.1:$port";
        // The process whose CPU a contender is charged: its pool's worker, or nginx for the static row.
        $workerOf = static fn (array $c): int => $c['pool'] === null ? $nginx : $workers[$c['pool']];

        $rows = [];
        $live = [];
        foreach ($contenders as $id => $c) {
            $na = match (true) {
                $c['pool'] !== null && !isset($pools[$c['pool']]) => 'n/a (extension not built)',
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
                if (isset($c['cref'])) {
                    wait_quiet($cfg);
                    $run = cref_run($cfg, $drains[$c['cref']], $file, $size, $d);
                    if (is_string($run)) {
                        $rows[$id]['error'] = $run;
                        say("  $id: $run");
                    } elseif ($rep >= 0) {
                        $rows[$id]['runs'][] = $run;
                    }
                    continue;
                }
                $worker = $workerOf($c);
                wait_quiet($cfg);
                settle([$worker, $nginx]);
                $w0 = proc_cpu($worker);
                $n0 = proc_cpu($nginx);
                [$code, $bytes, $time] = http_get($base . $c['url']);
                settle([$worker, $nginx]);
                $w1 = proc_cpu($worker);
                $n1 = proc_cpu($nginx);
                if ($code !== '200' || $bytes !== $size) {
                    $rows[$id]['error'] = "HTTP $code, $bytes bytes (expected $size): " . tail("$d/fpm-{$c['pool']}.log", 200) . ' ' . tail("$d/nginx-error.log", 200);
                    say("  $id: {$rows[$id]['error']}");
                    continue;
                }
                if ($rep >= 0) {
                    // The nginx row's worker is nginx: its server CPU is counted once.
                    $rows[$id]['runs'][] = ['wall' => $time, 'bytes' => $bytes, 'cpu' => $w1 - $w0,
                        'nginx_cpu' => $n1 - $n0, 'server_cpu' => $c['pool'] === null ? $n1 - $n0 : $w1 - $w0 + $n1 - $n0];
                }
            }
            echo '.';
        }
        // Separate, untimed pass: one request per contender with strace -c
        // on the worker and on nginx.
        if ($cfg['has_strace']) {
            foreach ($live as $id) {
                if (isset($rows[$id]['error']) || isset($contenders[$id]['cref'])) {
                    continue;
                }
                $c = $contenders[$id];
                $worker = $workerOf($c);
                settle([$worker, $nginx]);
                $tw = strace_attach($worker, "$d/strace-$id-worker.txt");
                $tn = $c['pool'] === null ? null : strace_attach($nginx, "$d/strace-$id-nginx.txt");
                [$code, $bytes] = http_get($base . $c['url']);
                settle([$worker, $nginx]);
                $rows[$id]['syscalls'] = strace_detach($tw);
                $rows[$id]['nginx_syscalls'] = $tn ? strace_detach($tn) : $rows[$id]['syscalls'];
                if ($code !== '200' || $bytes !== $size) {
                    $rows[$id]['syscalls'] = $rows[$id]['nginx_syscalls'] = null;
                }
            }
            echo 's';
        }
        say(sprintf(' %.1f s', microtime(true) - $tc));

        $perGib = static fn (?float $s) => $s === null ? null : $s / ($size / GIB);
        foreach ($contenders as $id => $c) {
            $r = $rows[$id];
            $walls = array_column($r['runs'], 'wall');
            $script = preg_match('#/(\w+)\.php#', $c['url'] ?? '', $m) ? $m[1] : '';
            $stats = @file_get_contents("$d/stats-{$c['pool']}-$script.json");
            $cpu = array_column($r['runs'], 'cpu');
            $sys = static fn (?array $s) => $s === null ? null : ['per_gib' => (int) round($s['total'] * GIB / $size)] + $s;
            $out['rows'][] = [
                ...http_row('http', 'HTTP: nginx → PHP-FPM, curl client', $size, $id, $c['label'], $c['short']),
                'listen' => $c['cref'] ?? ($c['pool'] === null ? null : $pools[$c['pool']]['listen']),
                ...row_timing($r, $walls, $size),
                // Medians of the runs, per GiB. The worker's spread is shown
                // too: one request that met a busy machine can double it.
                ...row_cpu($cpu, $perGib),
                'nginx_cpu_per_gib' => isset($c['cref']) ? null : $perGib(median(array_column($r['runs'], 'nginx_cpu'))),
                'server_cpu_per_gib' => $perGib(median(array_column($r['runs'], 'server_cpu'))),
                'cpu_process' => match (true) {
                    isset($c['cref']) => 'C sender',
                    $c['pool'] === null => 'nginx worker',
                    default => 'FPM worker',
                },
                'maxrss_kb' => null,
                'syscalls' => $sys($r['syscalls'] ?? null),
                'nginx_syscalls' => $sys($r['nginx_syscalls'] ?? null),
                'engine' => $stats ? json_decode($stats, true) : null,
                'walls' => $walls,
            ];
        }
        $byId = array_column($out['rows'], null, 'contender');
        // $a[$field] / $b[$field] ($inverse: the other way up) when both rows ran; null otherwise.
        $ratio = static function (array $a, ?array $b, string $field, bool $inverse = false): ?float {
            if ($b === null || $b['status'] !== 'ok' || $a['status'] !== 'ok') {
                return null;
            }
            [$num, $den] = $inverse ? [$b[$field], $a[$field]] : [$a[$field], $b[$field]];
            return $den > 0 ? $num / $den : null;
        };
        foreach ($out['rows'] as &$r) {
            $c = $contenders[$r['contender']];
            // The same code on stock PHP; for the fastcgi rows also the override on the
            // output-layer path and the C floor. CPU ratios above 1 are dearer, time above 1 faster.
            $b = $byId[$c['base'] ?? 'stock'] ?? null;
            $l = isset($c['layer']) ? $byId[$c['layer']] : null;
            $f = isset($c['ref']) ? $byId[$c['ref']] : null;
            $r['base'] = $b['short'] ?? null;
            $r['vs_stock'] = $ratio($r, $b, 'wall_median', true);
            $r['cpu_vs_stock'] = $ratio($r, $b, 'cpu_per_gib');
            $r['layer'] = $l['short'] ?? null;
            $r['server_vs_layer'] = $ratio($r, $l, 'server_cpu_per_gib');
            $r['vs_ref'] = null;
            $r['floor'] = $f['short'] ?? null;
            $r['cpu_vs_floor'] = $ratio($r, $f, 'cpu_per_gib');
        }
        unset($r);
    } catch (Throwable $e) {
        $out['error'] = $e->getMessage();
        say("  http: {$e->getMessage()}");
    } finally {
        foreach ($drains ?? [] as $env) {
            stop_receivers($env);
        }
        stop_servers($servers);
    }
    return $out;
}
