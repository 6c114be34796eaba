<?php
// The HTTP case: nginx serving a file itself (sendfile on) against PHP-FPM
// behind it sending the same file through php://output (on a TCP pool by the fastcgi
// path's splice route, its default, and by its copy route beside it), or handing it back for
// nginx to send (the hand-over, http_handover.php). curl is the client; the figures
// that matter are the FPM worker's CPU seconds per GiB served, and the whole
// server's (nginx + worker) against nginx's own static download. Its pools, timed
// requests and checks serve the lighttpd case too (http_lighttpd.php).
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

/** $listen: a unix socket path or 127.0.0.1:PORT; $children: the pool's static workers. */
function fpm_conf(string $d, string $name, string $listen, int $children = 1): string
{
    return <<<INI
    [global]
    pid = $d/fpm-$name.pid
    error_log = $d/fpm-$name.log
    daemonize = no

    [bench]
    listen = $listen
    pm = static
    pm.max_children = $children
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
 * directives after $directives), plus $static; $connections: the worker's connections
 * (a client and its upstream take two).
 *
 * @param array<string, array{addr: string, directives?: string[]}> $pools
 */
function nginx_conf(string $d, int $port, array $http, array $pools, string $scripts, string $script,
    array $params, array $directives, string $static = '', int $connections = 64): string
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
        . "pid $d/nginx.pid;\nerror_log $d/nginx-error.log warn;\nevents { worker_connections $connections; }\nhttp {\n"
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
 * The FPM masters, one worker each, of the $kinds asked for: stock without the
 * extension; with it and the override, once on the output-layer path (fastcgi
 * switched off: what fastcopy did before the fastcgi path), once with every path
 * (fc), and once more with every path behind a location that declares the hand-over
 * (ho: the same ini as fc, the web server's parameters make the difference). Each on
 * a unix socket (Debian's default pool) and on TCP; on TCP also cp, every path with
 * fastcopy.same_host=copy (the fastcgi path's copy route, where fc's is the splice
 * route), when the extension has that setting.
 */
function http_pools(array $cfg, string $d, array $kinds = ['stock', 'layer', 'fc', 'cp', 'ho']): array
{
    // cp: the fastcgi path's copy route on a TCP pool whose web server is on this host, where fc
    // splices (issue 35). A unix pool always splices: it has no cp pool.
    $byKind = ['stock' => null, 'layer' => ['fastcopy.disable=fastcgi'], 'fc' => [], 'cp' => ['fastcopy.same_host=copy'], 'ho' => []];
    $pools = [];
    foreach (['unix' => '', 'tcp' => '_tcp'] as $listen => $sfx) {
        foreach (array_intersect_key($byKind, array_flip($kinds)) as $kind => $ini) {
            if (($ini !== null && $cfg['ext'] === '') || ($kind === 'cp' && ($listen !== 'tcp' || empty($cfg['same_host'])))) {
                continue;
            }
            $args = [];
            if ($ini !== null) {
                $ini = ['extension=' . $cfg['ext'], ...($cfg['override'] ? ['fastcopy.override=1'] : []), ...$ini];
                foreach ($ini as $line) {
                    array_push($args, '-d', $line);
                }
            }
            $pools["$kind$sfx"] = ['listen' => $listen, 'args' => $args, 'handover' => $kind === 'ho',
                'addr' => $listen === 'unix' ? "$d/fpm-$kind$sfx.sock" : '127.0.0.1:' . free_port()];
        }
    }
    return $pools;
}

/**
 * The scripts the download cases serve the file named $name with: id => [what,
 * URL under the pool's prefix, whether it runs the real libraries].
 */
function download_scripts(string $name): array
{
    return [
        'readfile' => ['readfile()', 'readfile.php', false],
        'dav' => ['sabre/dav 4.7 GET (sabre/http 5.1.12)', "dav.php/$name", true],
        // Nextcloud's shape: the body behind icewind's CallbackWrapper (close callback only).
        'nextcloud' => ['sabre/dav GET + CallbackWrapper (Nextcloud shape)', "nextcloud.php/$name", true],
    ];
}

/**
 * Who is measured, through which URL, in which pool. 'base' is the same code
 * on stock PHP; 'layer' the same code with the override on the output-layer
 * path, which the fastcgi rows' server CPU is compared with; 'handover': the
 * location declares the hand-over, and every request must be handed over.
 */
function http_contenders(string $name): array
{
    $c = ['nginx' => ['label' => 'nginx static (sendfile on)', 'short' => 'nginx static', 'url' => '/static/file.bin', 'pool' => null]];
    $scripts = download_scripts($name);
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
            // The fastcgi path's own choice: the splice route, on a unix pool and on a TCP pool whose
            // web server is on this host alike (an extension without fastcopy.same_host splices
            // everywhere too); on TCP the copy route beside it (cp pool: fastcopy.same_host=copy).
            // 'route': the syscall the worker's strace pass must show, or the row fails.
            $c["{$id}_ov$sfx"] = ['label' => "$what, override, fastcgi path" . ($listen === 'tcp' ? ', splice route (the default)' : '') . " ($where)",
                'short' => "$id fastcgi $listen", 'url' => "/fc$sfx/$url", 'pool' => "fc$sfx", 'ext' => true, 'override' => true, 'libs' => $libs,
                'base' => "$id$sfx", 'layer' => "{$id}_layer$sfx", 'ref' => $listen === 'unix' ? 'cref' : 'cref_tcp', 'route' => 'splice'];
            if ($listen === 'tcp') {
                $c["{$id}_cp$sfx"] = ['label' => "$what, override, fastcgi path, copy route: fastcopy.same_host=copy ($where)",
                    'short' => "$id copies $listen", 'url' => "/cp$sfx/$url", 'pool' => "cp$sfx", 'ext' => true, 'override' => true,
                    'needs' => 'same_host', 'libs' => $libs, 'base' => "$id$sfx", 'layer' => "{$id}_layer$sfx", 'ref' => 'cref_copy_tcp', 'route' => 'writev'];
            }
            $c["{$id}_ho$sfx"] = ['label' => "$what, override, hand-over: X-Accel-Redirect ($where)", 'short' => "$id handover $listen",
                'url' => "/ho$sfx/$url", 'pool' => "ho$sfx", 'ext' => true, 'override' => true, 'libs' => $libs, 'base' => "$id$sfx",
                'handover' => true];
        }
    }
    // The floor: the fastcgi path's syscalls in C, no PHP, into the bench's drain: the splice
    // route's on each pool socket, and on TCP the copy route's (writev() from a mapping).
    foreach (['unix' => 'unix socket', 'tcp' => 'TCP'] as $listen => $where) {
        $c[$listen === 'unix' ? 'cref' : 'cref_tcp'] = ['label' => "C: the fastcgi path's syscalls without PHP (fcref fastcgi → drain, $where)",
            'short' => "C fastcgi $listen", 'url' => null, 'pool' => null, 'cref' => $listen, 'mode' => 'fastcgi',
            'base' => $listen === 'unix' ? 'readfile' : 'readfile_tcp'];
    }
    $c['cref_copy_tcp'] = ['label' => "C: the fastcgi path's copy route without PHP (fcref fastcgi_copy → drain, TCP)",
        'short' => 'C fastcgi copies tcp', 'url' => null, 'pool' => null, 'cref' => 'tcp', 'mode' => 'fastcgi_copy', 'base' => 'readfile_tcp'];
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

/** One request through curl, the body hashed as it arrives: [HTTP code, bytes, sha256 or null]. */
function http_get_sha256(string $url, string $tmp): array
{
    $hash = trim((string) shell_exec(sprintf('curl -s --max-time 300 -w %s %s 2>%s | %s', escapeshellarg('%{stderr}%{http_code} %{size_download}'),
        escapeshellarg($url), escapeshellarg("$tmp.curl"), sha256_tool())));
    [$code, $bytes] = explode(' ', trim((string) @file_get_contents("$tmp.curl")) . ' ');
    return [$code, (int) $bytes, preg_match('/^([0-9a-f]{64}) /', $hash, $m) ? $m[1] : null];
}

/**
 * One GET of $url measured on $pids (role => pid), the machine quiet and each process
 * idle before, and idle again after: curl has all the bytes before a worker has ended
 * its request, and the end belongs to the request's cost. [code, bytes, wall, cpu =>
 * [role => seconds]].
 */
function timed_get(array &$cfg, array $pids, string $url): array
{
    wait_quiet($cfg);
    settle(array_values($pids));
    $cpu = array_map('proc_cpu', $pids);
    [$code, $bytes, $time] = http_get($url);
    settle(array_values($pids));
    foreach ($pids as $role => $pid) {
        $cpu[$role] = proc_cpu($pid) - $cpu[$role];
    }
    return ['code' => $code, 'bytes' => $bytes, 'wall' => $time, 'cpu' => $cpu];
}

/** One GET of $url with `strace -c` on each of $pids (role => pid): [code, bytes, [role => strace_detach()]]. */
function traced_get(array $pids, string $url, string $prefix): array
{
    settle(array_values($pids));
    $traces = [];
    foreach ($pids as $role => $pid) {
        $traces[$role] = strace_attach($pid, "$prefix-$role.txt");
    }
    [$code, $bytes] = http_get($url);
    settle(array_values($pids));
    return [$code, $bytes, array_map('strace_detach', $traces)];
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
    // all: every call by name, which the route check reads (a short request's top three may not name it)
    return $total === null ? null : ['total' => $total, 'by_name' => array_slice($names, 0, 3, true), 'all' => $names];
}

/**
 * One run of the C floor: fcref's fastcgi mode into a drain. What the drain
 * counted must be the payload plus one 8-byte header per record.
 * Returns a run (its CPU is the sender's: user + system) or an error.
 */
function cref_run(array $cfg, array $drain, string $file, int $size, string $d, string $mode = 'fastcgi'): array|string
{
    $report = "$d/cref.json";
    @unlink($report);
    @unlink($drain['countfile']);
    $dst = isset($drain['port']) ? 'tcp:127.0.0.1:' . $drain['port'] : 'unix:' . $drain['sock'];
    $p = proc_open(['timeout', '-k', '5', (string) $cfg['run_timeout'], $cfg['bin'] . '/fcref', $mode, "src=$file", "dst=$dst", "report=$report"],
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
    return ['wall' => $r['wall'], 'bytes' => $size, 'cpu' => $cpu, 'front_cpu' => null, 'server_cpu' => $cpu];
}

/**
 * Every pool's ini in the download cases: output_buffering and expose_php as in
 * php.ini-production (and Debian's): nginx gives no X-Powered-By back, so a response
 * carrying it would not be handed over. And the extensions the libraries need under -n.
 */
function fpm_ini(): array
{
    $ini = ['-d', 'memory_limit=128M', '-d', 'output_buffering=4096', '-d', 'expose_php=0'];
    foreach (fclib_ini() as $line) {
        array_push($ini, '-d', $line);
    }
    return $ini;
}

/**
 * Starts the pools of http_pools(), $children static workers each, with $fpmIni; the
 * processes go to $servers. Returns each pool's (first) worker.
 */
function start_pools(array &$cfg, string $d, array $pools, array $fpmIni, array &$servers, int $children = 1): array
{
    $workers = [];
    foreach ($pools as $name => $pool) {
        file_put_contents("$d/fpm-$name.conf", fpm_conf($d, $name, $pool['addr'], $children));
        $log = "$d/fpm-$name.out";
        [$servers[], $master] = start_server(['/usr/sbin/php-fpm8.2', '-n', '-R', '-F', '-y', "$d/fpm-$name.conf", ...$fpmIni, ...$pool['args']],
            $log, $cfg);
        $workers[$name] = wait_worker($master, $log);
    }
    return $workers;
}

/**
 * The untimed check of a download row's body: one more request, its sha256 against the
 * file's ($sha). Null when equal, else what was wrong.
 */
function body_mismatch(string $url, int $size, string $sha, string $tmp): ?string
{
    [$code, $bytes, $got] = http_get_sha256($url, $tmp);
    return $code === '200' && $bytes === $size && $got === $sha ? null
        : "the body checked: HTTP $code, $bytes bytes, sha256 " . ($got ?? '?') . " (expected $size bytes, $sha)";
}

/**
 * One timed request of a download row on the front end's process ($front) and, for a
 * pool's row, its worker, the bytes counted; for a row that declares the hand-over, the
 * worker's counters read around it: the request must have been handed over whole.
 * Returns a run [wall, bytes, cpu (the worker's, or the front end's on its static row),
 * front_cpu, server_cpu (a static row's front end counted once)] or why it failed.
 */
function download_run(array &$cfg, array $c, int $front, ?int $worker, string $base, int $size): array|string
{
    $stats = "$base/{$c['pool']}/stats.php";
    $before = empty($c['handover']) ? null : worker_stats($stats);
    $run = timed_get($cfg, ['front' => $front] + ($worker === null ? [] : ['worker' => $worker]), $base . $c['url']);
    if ($run['code'] !== '200' || $run['bytes'] !== $size) {
        return "HTTP {$run['code']}, {$run['bytes']} bytes (expected $size)";
    }
    if (!empty($c['handover']) && ($missed = handover_missed($before, worker_stats($stats), $size)) !== null) {
        return $missed;
    }
    return ['wall' => $run['wall'], 'bytes' => $run['bytes'], 'cpu' => $run['cpu']['worker'] ?? $run['cpu']['front'],
        'front_cpu' => $run['cpu']['front'], 'server_cpu' => array_sum($run['cpu'])];
}

/**
 * The untimed passes of a download case over its $live rows (by $contenders' urls; C
 * rows have none): each body's sha256 against the file's, with what the worker's
 * fastcopy_stats() counted for that request once it ended (the engine column), then,
 * with strace, one request with `strace -c` on the worker ($workerOf) and on the front
 * end. Fills $rows[$id]: sha256_equal or error, engine, syscalls, front_syscalls.
 */
function download_checks(array &$cfg, array $contenders, array $live, array &$rows, string $base, string $file, int $size,
    int $front, callable $workerOf, string $d): void
{
    $sha = sha256_file($file);
    foreach ($live as $id) {
        if (isset($rows[$id]['error']) || ($contenders[$id]['url'] ?? null) === null) {
            continue;
        }
        $stats = empty($contenders[$id]['ext']) ? null : "$base/{$contenders[$id]['pool']}/stats.php";
        $before = $stats ? worker_stats($stats) : null;
        $wrong = body_mismatch($base . $contenders[$id]['url'], $size, $sha, "$d/body-$id");
        $rows[$id]['engine'] = $stats ? fc_stats_active(fc_stats_delta($before, worker_stats($stats))) : null;
        $rows[$id]['sha256_equal'] = $wrong === null;
        if ($wrong !== null) {
            $rows[$id]['error'] = $wrong;
            say("  $id: $wrong");
        }
    }
    echo 'h';
    if (!$cfg['has_strace']) {
        return;
    }
    foreach ($live as $id) {
        $c = $contenders[$id];
        if (isset($rows[$id]['error']) || ($c['url'] ?? null) === null) {
            continue;
        }
        $worker = $workerOf($c);
        [$code, $bytes, $sys] = traced_get(['front' => $front] + ($worker === null ? [] : ['worker' => $worker]), $base . $c['url'],
            "$d/strace-$id");
        if ($code === '200' && $bytes === $size) {
            $rows[$id]['syscalls'] = $sys['worker'] ?? $sys['front'];
            $rows[$id]['front_syscalls'] = $sys['front'];
            if (isset($c['route']) && ($wrong = route_missed($c['route'], $sys['worker'] ?? null)) !== null) {
                $rows[$id]['error'] = $wrong;
                say("  $id: $wrong");
            } elseif (isset($c['route'])) {
                $rows[$id]['route'] = $c['route'];
            }
        }
    }
    echo 's';
}

/**
 * Whether the fastcgi path took the route a row is for ($route: splice, or writev for the copy
 * route), by the worker's syscalls over one request: the splice route splices, the copy route
 * writes its records with writev() and splices nothing (fastcopy_stats() counts both as the
 * fastcgi path). Null when it did, else what it did.
 */
function route_missed(string $route, ?array $sys): ?string
{
    $all = $sys['all'] ?? $sys['by_name'] ?? [];
    $took = match (true) {
        isset($all['splice']) => 'splice',
        isset($all['writev']) => 'writev',
        default => null,
    };
    return $took === $route ? null : sprintf('the fastcgi path took the %s route, not the %s route (worker syscalls: %s)',
        $took === null ? 'neither' : ($took === 'splice' ? 'splice' : 'copy (writev)'), $route === 'splice' ? 'splice' : 'copy (writev)',
        implode(', ', array_map(fn ($n, $k) => "$n $k", array_keys(array_slice($all, 0, 6, true)), array_slice($all, 0, 6, true))));
}

/**
 * A download row's figures from its runs, per GiB: the time, the worker's CPU (median,
 * min–max: one request that met a busy machine can double it), the front end's
 * ("{$front}_cpu_per_gib") and the whole server's; syscalls per GiB of both; what the
 * body and hand-over checks found.
 */
function download_figures(array $r, int $size, string $front): array
{
    $perGib = static fn (?float $s) => $s === null ? null : $s / ($size / GIB);
    $sys = static fn (?array $s) => $s === null ? null : ['per_gib' => (int) round($s['total'] * GIB / $size)] + $s;
    $walls = array_column($r['runs'], 'wall');
    return [
        ...row_timing($r, $walls, $size),
        ...row_cpu(array_column($r['runs'], 'cpu'), $perGib),
        "{$front}_cpu_per_gib" => $perGib(median(array_filter(array_column($r['runs'], 'front_cpu'), 'is_float'))),
        'server_cpu_per_gib' => $perGib(median(array_column($r['runs'], 'server_cpu'))),
        'maxrss_kb' => null,
        'syscalls' => $sys($r['syscalls'] ?? null),
        "{$front}_syscalls" => $sys($r['front_syscalls'] ?? null),
        'sha256_equal' => $r['sha256_equal'] ?? null,
        'handed_over' => $r['handed_over'] ?? null,
        // the fastcgi path's route the strace pass saw the worker take (splice, or writev: the copy route)
        'route' => $r['route'] ?? null,
        'engine' => $r['engine'] ?? null,
        'walls' => $walls,
    ];
}

/** $a[$field] / $b[$field] ($inverse: the other way up) when both rows ran; null otherwise. */
function row_ratio(array $a, ?array $b, string $field, bool $inverse = false): ?float
{
    if ($b === null || $b['status'] !== 'ok' || $a['status'] !== 'ok') {
        return null;
    }
    [$num, $den] = $inverse ? [$b[$field], $a[$field]] : [$a[$field], $b[$field]];
    return $den > 0 ? $num / $den : null;
}

/**
 * Why a download contender cannot run here, or null: its pool was not started (no
 * extension), the override is missing, or the libraries it runs are.
 */
function download_na(array $c, array $pools, array $cfg, bool $libs): ?string
{
    return match (true) {
        ($c['needs'] ?? null) === 'same_host' && empty($cfg['same_host']) && $cfg['ext'] !== '' => 'n/a (fastcopy.same_host not built)',
        $c['pool'] !== null && !isset($pools[$c['pool']]) => 'n/a (extension not built)',
        !empty($c['override']) && !$cfg['override'] => 'n/a (override not built)',
        !empty($c['libs']) && !$libs => 'n/a (sabre/dav not installed: tests/integration/setup.sh)',
        default => null,
    };
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
    // In the directory the hand-over is declared for: nginx's internal location sends from there.
    $file = http_data_file($cfg, $size);
    $port = free_port();
    $contenders = http_contenders(basename($file));
    // The sabre/dav rows run the real libraries, which tests/integration/setup.sh installs.
    $libs = fclib_autoload('dav') !== null;
    $servers = [];
    say(sprintf('%-10s %-12s ', 'http', human_size($size)));
    $tc = microtime(true);
    try {
        // The ho pools behind the hand-over as an operator configures it (conf/nginx's files).
        [$pools, $handover] = handover_nginx(http_pools($cfg, $d), $d, dirname($file));
        // Production-like buffering, but never spill to a temp file.
        file_put_contents("$d/nginx.conf", nginx_conf($d, $port, ['sendfile on', 'tcp_nopush on',
            'default_type application/octet-stream'], $pools, dirname(__DIR__) . '/cases/http', '(/.*)?$', [
                'PATH_INFO' => '$2', 'REQUEST_URI' => '$request_uri', 'REQUEST_METHOD' => '$request_method',
                'QUERY_STRING' => '$query_string', 'SERVER_PROTOCOL' => '$server_protocol', 'FCBENCH_FILE' => $file,
                'FCBENCH_WORK' => $d,
            ], ['fastcgi_buffers 64 64k', 'fastcgi_max_temp_file_size 0', 'fastcgi_read_timeout 600s'],
            "        location = /static/file.bin { alias $file; }\n$handover"));
        $workers = start_pools($cfg, $d, $pools, fpm_ini(), $servers);
        [$servers[], $master] = start_server(['/usr/sbin/nginx', '-p', "$d/", '-c', "$d/nginx.conf", '-e', "$d/nginx-error.log"], "$d/nginx.out", $cfg);
        foreach (['unix', 'tcp'] as $listen) {
            $drains[$listen] = start_receivers(['dst' => $listen], $cfg);
        }
        wait_path("$d/nginx.pid", "$d/nginx-error.log");
        $nginx = wait_worker($master, "$d/nginx-error.log");
        $base = "http://127.0.0.1:$port";
        // The worker a contender is charged besides nginx: its pool's, none for the static row.
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
                if (isset($c['cref'])) {
                    wait_quiet($cfg);
                    $run = cref_run($cfg, $drains[$c['cref']], $file, $size, $d, $c['mode']);
                } else {
                    $run = download_run($cfg, $c, $nginx, $workerOf($c), $base, $size);
                }
                if (is_string($run)) {
                    $rows[$id]['error'] = $run . (isset($c['cref']) ? '' : ': ' . tail("$d/fpm-{$c['pool']}.log", 200) . ' ' . tail("$d/nginx-error.log", 200));
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
        download_checks($cfg, $contenders, $live, $rows, $base, $file, $size, $nginx, $workerOf, $d);
        say(sprintf(' %.1f s', microtime(true) - $tc));

        foreach ($contenders as $id => $c) {
            $out['rows'][] = [
                ...http_row('http', 'HTTP: nginx → PHP-FPM, curl client', $size, $id, $c['label'], $c['short']),
                'listen' => $c['cref'] ?? ($c['pool'] === null ? null : $pools[$c['pool']]['listen']),
                ...download_figures($rows[$id], $size, 'nginx'),
                'cpu_process' => match (true) {
                    isset($c['cref']) => 'C sender',
                    $c['pool'] === null => 'nginx worker',
                    default => 'FPM worker',
                },
            ];
        }
        $byId = array_column($out['rows'], null, 'contender');
        foreach ($out['rows'] as &$r) {
            $c = $contenders[$r['contender']];
            // The same code on stock PHP; for the fastcgi rows also the override on the
            // output-layer path and the C floor. CPU ratios above 1 are dearer, time above 1 faster.
            $b = $byId[$c['base'] ?? 'stock'] ?? null;
            $l = isset($c['layer']) ? $byId[$c['layer']] : null;
            $f = isset($c['ref']) ? $byId[$c['ref']] : null;
            $r['base'] = $b['short'] ?? null;
            $r['vs_stock'] = row_ratio($r, $b, 'wall_median', true);
            $r['cpu_vs_stock'] = row_ratio($r, $b, 'cpu_per_gib');
            $r['layer'] = $l['short'] ?? null;
            $r['server_vs_layer'] = row_ratio($r, $l, 'server_cpu_per_gib');
            $r['vs_ref'] = null;
            $r['floor'] = $f['short'] ?? null;
            $r['cpu_vs_floor'] = row_ratio($r, $f, 'cpu_per_gib');
            // The whole server against nginx sending the same file itself, in this run.
            $r['server_vs_static'] = isset($c['cref']) ? null : row_ratio($r, $byId['nginx'], 'server_cpu_per_gib');
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
