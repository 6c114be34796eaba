<?php
// The occupancy case (issue 34): what a download holds besides CPU. nginx with Nextcloud's
// settings (its admin manual: fastcgi_buffers 64 4K, and fastcgi_max_temp_file_size 0 in
// the PHP location, so nginx keeps no response in a temp file and the worker sending it is
// busy until its client has taken all but the last buffers), a pool of pm.max_children = 2,
// three clients downloading a 64 MiB file each through Nextcloud's shape at 8 MiB/s (curl
// --limit-rate), and meanwhile a small PHP page requested every 0.2 s, 40 times: how long
// did the page wait? Stock PHP, the override on the fastcgi path, and the override where
// nginx declares the hand-over (the worker is free when the script ends). A wall-time
// figure by nature: the page waits for a worker, not for CPU. Uses nginx_conf() and the
// pools of http.php.
declare(strict_types=1);

/** The case's shape: the file, the clients and their rate, the small page's requests and their interval (tiny when smoking). */
function occupancy_shape(array $cfg): array
{
    $smoke = $cfg['mode'] === 'smoke';
    return ['size' => $smoke ? MIB : 64 * MIB, 'clients' => 3, 'rate' => 8 * MIB, 'workers' => 2,
        'pages' => $smoke ? 5 : 40, 'every' => $smoke ? 0.05 : 0.2,
        // each round holds the machine 8-16 s of wall time per contender; the spread across
        // rounds is in the report
        'rounds' => $smoke ? 1 : min(3, $cfg['runs'])];
}

/** Who is measured: the same download and page through a pool of each kind. */
function occupancy_contenders(string $name): array
{
    $url = download_scripts($name)['nextcloud'][1];
    $c = [];
    foreach (['stock' => 'stock', 'fc' => 'fastcopy.override=1, fastcgi path', 'ho' => 'fastcopy.override=1, hand-over (X-Accel-Redirect)'] as $pool => $what) {
        $c["occ_$pool"] = ['label' => $what, 'short' => "occupancy $pool", 'pool' => $pool, 'url' => "/$pool/$url", 'libs' => true,
            'override' => $pool !== 'stock', 'handover' => $pool === 'ho'];
    }
    return $c;
}

/** Starts `$cmd` in the background, its stdout into $out; returns the process. */
function occupancy_spawn(string $cmd, string $out)
{
    return proc_open(['sh', '-c', $cmd], [0 => ['file', '/dev/null', 'r'], 1 => ['file', $out, 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
}

/**
 * One round of one contender: the downloads started together, the small page requested
 * on its schedule while they run (each request its own client, so one that waits holds
 * up none after it), then everything waited for. Returns [waits (s), downloads (s)] or
 * why it failed: a download whose code, size or sha256 is not the file's, a page not
 * answered 200 "ok", or a hand-over not made.
 */
function occupancy_round(array &$cfg, array $o, string $base, array $c, string $d, string $sha): array|string
{
    $stats = "$base/{$c['pool']}/stats.php";
    wait_quiet($cfg);
    $before = $c['handover'] ? pool_stats($stats, $o['workers'], "$d/stats") : null;
    $downloads = [];
    for ($i = 0; $i < $o['clients']; $i++) {
        @unlink("$d/dl-$i.curl");
        $downloads[$i] = occupancy_spawn(sprintf('curl -s --max-time 600 --limit-rate %s -w %s %s 2>%s | %s', $o['rate'],
            escapeshellarg('%{stderr}%{http_code} %{size_download} %{time_total}'), escapeshellarg($base . $c['url']),
            escapeshellarg("$d/dl-$i.curl"), sha256_tool()), "$d/dl-$i.sha");
    }
    $t0 = hrtime(true);
    $pages = [];
    for ($k = 1; $k <= $o['pages']; $k++) {
        $due = $t0 + (int) ($k * $o['every'] * 1e9);
        while (($now = hrtime(true)) < $due) {
            usleep((int) min(($due - $now) / 1000, 50000));
        }
        $pages[$k] = occupancy_spawn('curl -s -o /dev/null --max-time 600 -w ' . escapeshellarg('%{http_code} %{size_download} %{time_total}')
            . ' ' . escapeshellarg("$base/{$c['pool']}/small.php"), "$d/page-$k.txt");
    }
    array_map('proc_close', [...$pages, ...$downloads]);
    $waits = $times = [];
    foreach (array_keys($pages) as $k) {
        [$code, $bytes, $time] = explode(' ', trim((string) @file_get_contents("$d/page-$k.txt")) . '  ');
        if ($code !== '200' || $bytes !== '3') {
            return "the small page, request $k: HTTP $code, $bytes bytes";
        }
        $waits[] = (float) $time;
    }
    foreach (array_keys($downloads) as $i) {
        [$code, $bytes, $time] = explode(' ', trim((string) @file_get_contents("$d/dl-$i.curl")) . '  ');
        $got = substr(trim((string) @file_get_contents("$d/dl-$i.sha")), 0, 64);
        if ($code !== '200' || (int) $bytes !== $o['size'] || $got !== $sha) {
            return "download $i: HTTP $code, $bytes bytes, sha256 $got (expected {$o['size']}, $sha)";
        }
        $times[] = (float) $time;
    }
    if ($c['handover'] && ($missed = handover_missed($before, pool_stats($stats, $o['workers'], "$d/stats"), $o['size'], $o['clients'])) !== null) {
        return $missed;
    }
    return ['waits' => $waits, 'downloads' => $times];
}

function http_occupancy_case(array &$cfg): array
{
    $o = occupancy_shape($cfg);
    $out = ['size' => $o['size'], 'shape' => $o, 'rows' => []];
    if (!is_executable('/usr/sbin/nginx') || !is_executable('/usr/sbin/php-fpm8.2')) {
        return $out + ['error' => 'nginx or php-fpm8.2 not installed (bench/run --http installs them)'];
    }
    $d = $cfg['work'] . '/occupancy';
    @mkdir("$d/tmp", 0700, true);
    $file = http_data_file($cfg, $o['size']);
    $port = free_port();
    $contenders = occupancy_contenders(basename($file));
    $libs = fclib_autoload('dav') !== null;
    say(sprintf('%-10s %-12s ', 'occupancy', human_size($o['size'])));
    $tc = microtime(true);
    return run_http_case('occupancy', $out, function (array &$out, array &$servers)
            use (&$cfg, $contenders, $d, $file, $libs, $o, $port, $tc): void {
        // One unix-socket pool of each kind (Debian's default socket), the ho one behind the hand-over.
        [$pools, $handover] = handover_nginx(array_filter(http_pools($cfg, $d, ['stock', 'fc', 'ho']),
            fn (array $p): bool => $p['listen'] === 'unix'), $d, dirname($file));
        // Every page that waits holds two of nginx's connections (its client's and the pool's).
        file_put_contents("$d/nginx.conf", nginx_conf($d, $port, ['sendfile on', 'tcp_nopush on', 'default_type application/octet-stream',
            'fastcgi_buffers 64 4K'], $pools, dirname(__DIR__) . '/cases/http', '(/.*)?$', [
                'PATH_INFO' => '$2', 'REQUEST_URI' => '$request_uri', 'REQUEST_METHOD' => '$request_method',
                'QUERY_STRING' => '$query_string', 'SERVER_PROTOCOL' => '$server_protocol', 'FCBENCH_FILE' => $file,
                'FCBENCH_WORK' => $d,
            ], ['fastcgi_max_temp_file_size 0', 'fastcgi_read_timeout 600s'], $handover, 512));
        start_pools($cfg, $d, $pools, fpm_ini(), $servers, $o['workers']);
        [$servers[], $master] = start_server(['/usr/sbin/nginx', '-p', "$d/", '-c', "$d/nginx.conf", '-e', "$d/nginx-error.log"],
            "$d/nginx.out", $cfg);
        wait_path("$d/nginx.pid", "$d/nginx-error.log");
        wait_worker($master, "$d/nginx-error.log");
        $base = "http://127.0.0.1:$port";
        $sha = sha256_file($file);
        $rows = [];
        $live = [];
        foreach ($contenders as $id => $c) {
            $na = download_na($c, $pools, $cfg, $libs);
            $rows[$id] = ['rounds' => [], 'na' => $na];
            if ($na === null) {
                $live[] = $id;
            }
        }
        for ($rep = $cfg['warmup'] ? -1 : 0; $rep < $o['rounds']; $rep++) {
            foreach (rotated($live, $rep) as $id) {
                if (isset($rows[$id]['error'])) {
                    continue;
                }
                $round = occupancy_round($cfg, $o, $base, $contenders[$id], $d, $sha);
                if (is_string($round)) {
                    $rows[$id]['error'] = "$round: " . tail("$d/fpm-{$contenders[$id]['pool']}.log", 200) . ' ' . tail("$d/nginx-error.log", 200);
                    say("  $id: {$rows[$id]['error']}");
                } elseif ($rep >= 0) {
                    $rows[$id]['rounds'][] = $round;
                }
            }
            echo '.';
        }
        say(sprintf(' %.1f s', microtime(true) - $tc));
        foreach ($contenders as $id => $c) {
            $r = $rows[$id];
            $worst = array_map(fn (array $x): float => max($x['waits']), $r['rounds']);
            $out['rows'][] = [
                ...http_row('http_occupancy', 'HTTP occupancy: 3 slow downloads and a small page, 2 workers', $o['size'], $id, $c['label'], $c['short']),
                'status' => $r['na'] ?? (isset($r['error']) ? 'error: ' . $r['error'] : 'ok'),
                'n' => count($r['rounds']),
                // per round: the worst of the page's waits, and their median
                'worst_median' => median($worst),
                'worst_min' => $worst ? min($worst) : null,
                'worst_max' => $worst ? max($worst) : null,
                'wait_median' => median(array_map(fn (array $x): float => median($x['waits']), $r['rounds'])),
                'last_download_median' => median(array_map(fn (array $x): float => max($x['downloads']), $r['rounds'])),
                'rounds' => $r['rounds'],
            ];
        }
    });
}

/** The case's table for the report. */
function occupancy_markdown(array $oc): string
{
    $o = $oc['shape'];
    $md = "\n### HTTP occupancy: {$o['clients']} clients downloading " . human_size($o['size']) . ' each at ' . human_size($o['rate']) . '/s, '
        . "{$o['workers']} workers, a small PHP page every {$o['every']} s\n\n";
    if (!empty($oc['error'])) {
        return $md . "Not run: {$oc['error']}\n";
    }
    $md .= "nginx with Nextcloud's settings (fastcgi_buffers 64 4K, fastcgi_max_temp_file_size 0), a pool of pm.max_children = "
        . "{$o['workers']} (static, unix socket), {$o['clients']} curl clients downloading the file through Nextcloud's shape "
        . "(sabre/dav GET, CallbackWrapper) with --limit-rate " . human_size($o['rate']) . "/s, started together; meanwhile the small page "
        . "(cases/http/small.php) requested {$o['pages']} times, every {$o['every']} s, each by a client of its own. Its wait is "
        . "curl's time_total: **wall time**, which is what this case is about (the page waits for a free worker, not for CPU), "
        . "so it moves with the machine's load. Every download's size and sha256 checked; the hand-over's pool must say it handed "
        . "over every download whole. Medians of the rounds, the contenders interleaved.\n\n";
    $f = static fn (?float $s): string => $s === null ? '–' : fmt_time($s);
    return $md . md_table("| contender | the page's worst wait of {$o['pages']} (min–max of the rounds) | its median wait | the last download ended after | rounds |",
        '|---|--:|--:|--:|--:|', $oc['rows'], fn (array $r): string => sprintf("| %s | **%s** (%s–%s) | %s | %s | %d |\n", $r['label'],
            $f($r['worst_median']), $f($r['worst_min']), $f($r['worst_max']), $f($r['wait_median']), $f($r['last_download_median']), $r['n']));
}
