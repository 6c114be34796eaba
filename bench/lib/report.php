<?php
// Turns the measured rows into the issue's targets, a markdown report and the
// same figures as JSON (the charts: chart.php).
declare(strict_types=1);

function meta(array $cfg, float $seconds): array
{
    preg_match('/^model name\s*:\s*(.+)$/m', (string) @file_get_contents('/proc/cpuinfo'), $m);
    $mem = (string) @file_get_contents('/proc/meminfo');
    preg_match('/^MemTotal:\s*(\d+)/m', $mem, $mm);
    return [
        'date' => gmdate('Y-m-d H:i') . ' UTC',
        'mode' => $cfg['mode'],
        'runs' => $cfg['runs'],
        'warmup' => $cfg['warmup'],
        'commit' => $cfg['commit'],
        'php' => PHP_VERSION,
        'kernel' => php_uname('r'),
        'cpu' => ($m[1] ?? '?') . ' × ' . (int) shell_exec('nproc'),
        'memory_gib' => isset($mm[1]) ? round($mm[1] / 1048576, 1) : null,
        'extension' => $cfg['ext'] !== '' ? 'built' : 'not built',
        'override' => $cfg['override'] ? 'built' : 'not built',
        'fs' => "work: {$cfg['fs_work']}, shm: {$cfg['fs_shm']}" . ($cfg['cross_fs_ok'] ? '' : ' (SAME filesystem)'),
        'strace' => $cfg['has_strace'] ? ($cfg['strace_cases'] === null ? 'all cases' : implode(', ', $cfg['strace_cases']))
            . ($cfg['strace_contenders'] === null ? '' : ' (' . implode(', ', $cfg['strace_contenders']) . ')') : 'not installed',
        'seconds' => round($seconds, 1),
        'drain' => $cfg['drain'],
        'page_reporting' => $cfg['page_reporting'],
        'quiet' => sprintf('waited %.1f s for a quiet machine (budget %d s); %d runs started with others busy', $cfg['quiet_waited'], $cfg['quiet_budget'], $cfg['quiet_busy_runs']),
        'load' => sprintf('%.2f at start, %.2f at end (1-min load average, %d cores)', $cfg['load_start'][0], sys_getloadavg()[0], (int) shell_exec('nproc')),
    ];
}

/** Why a comparison can't be made, or null when all its rows ran. */
function missing(array $results, string $case, int $size, array $contenders): ?string
{
    $why = [];
    foreach ($contenders as $c) {
        if (find_row($results, $case, $size, $c) !== null) {
            continue;
        }
        $row = null;
        foreach ($results as $r) {
            if ($r['case'] === $case && $r['size'] === $size && $r['contender'] === $c) {
                $row = $r;
            }
        }
        $why[] = $row === null ? "$case at " . human_size($size) . ' not run in this mode' : "$c: {$row['status']}";
    }
    return $why ? 'not run (' . implode('; ', array_unique($why)) . ')' : null;
}

function t_ratio(array $results, string $case, int $size, string $a, string $b, string $stat = 'wall_median'): float
{
    return find_row($results, $case, $size, $b)[$stat] / find_row($results, $case, $size, $a)[$stat];
}

// The best runs' ratio, for context only: on a busy machine it shows whether
// a miss by median is the neighbours' doing. Targets are judged on medians.
function best(array $results, string $case, int $size, string $a, string $b): string
{
    return sprintf(' [best runs: %.2f]', t_ratio($results, $case, $size, $a, $b, 'wall_min'));
}

/** The issue's targets, each met / missed (with its figures) / not run. */
function targets(array $results, array $cfg, ?array $http): array
{
    $t = [];
    $add = function (string $name, ?string $notRun, callable $eval) use (&$t) {
        if ($notRun !== null) {
            $t[] = ['target' => $name, 'result' => 'not run', 'detail' => $notRun];
            return;
        }
        [$ok, $detail] = $eval();
        $t[] = ['target' => $name, 'result' => $ok ? 'met' : 'missed', 'detail' => $detail];
    };

    // Issue 35 (it replaces issue 3's "≥ 2.0× stock, within 10% of C sendfile", set when the receiver
    // discarded in the kernel): with the receiver reading, the copy no slower than stock, and the two
    // ends' CPU within 10% of the route that costs them least in the same run. Judged on
    // fastcopy_stream() with its default route (sendfile; fastcopy.same_host=copy is a row of its own).
    $add('file→TCP (loopback) 1 GiB, the receiver reading: no slower than stock, and both ends\' CPU within 10% of the cheapest route in the same run',
        missing($results, 'tcp', GIB, ['fastcopy', 'stock']), function () use ($results) {
            $f = find_row($results, 'tcp', GIB, 'fastcopy');
            $s = t_ratio($results, 'tcp', GIB, 'fastcopy', 'stock');
            $c = find_row($results, 'tcp', GIB, $f['cheapest_both']);
            return [$s >= 0.98 && $f['both_vs_cheapest'] <= 1.10, sprintf('%.2f× stock\'s speed (need ≥ 0.98)', $s) . best($results, 'tcp', GIB, 'fastcopy', 'stock')
                . sprintf('; both ends %s = %.2f× the cheapest, %s, %s (need ≤ 1.10); its speed %.2f× the cheapest\'s', fmt_time($f['both_cpu_median']),
                    $f['both_vs_cheapest'], $c['short'], fmt_time($c['both_cpu_median']), $c['wall_median'] / $f['wall_median'])];
        });
    // CPU of the copying process: the wrapper's only cost is the engine seeing through it.
    $add('wrapped file→TCP 1 GiB (CallbackWrapper, close callback only): CPU within 10% of the unwrapped file', missing($results, 'tcp_wrapped', GIB, ['fastcopy']) ?? missing($results, 'tcp', GIB, ['fastcopy']), function () use ($results) {
        $w = find_row($results, 'tcp_wrapped', GIB, 'fastcopy')['cpu_median'];
        $u = find_row($results, 'tcp', GIB, 'fastcopy')['cpu_median'];
        $s = find_row($results, 'tcp_wrapped', GIB, 'stock')['cpu_median'] ?? null;
        return [$w <= $u * 1.10 + 0.002, sprintf('%.3f s vs %.3f s unwrapped (%.2f×; need ≤ 1.10)', $w, $u, $u > 0 ? $w / $u : INF)
            . ($s ? sprintf('; stock through the wrapper %.3f s', $s) : '')];
    });
    $add('file→pipe 1 GiB: within 5% of C', missing($results, 'pipe', GIB, ['fastcopy', 'c_splice']), function () use ($results) {
        $c = t_ratio($results, 'pipe', GIB, 'fastcopy', 'c_splice');
        return [$c >= 0.95, sprintf('%.2f of C splice (need ≥ 0.95)', $c) . best($results, 'pipe', GIB, 'fastcopy', 'c_splice')];
    });
    $crossNotRun = missing($results, 'cross_fs', GIB, ['fastcopy', 'cp']) ?? ($cfg['cross_fs_ok'] ? null : 'not run (the two directories are on one filesystem)');
    $add('across filesystems 1 GiB: within 5% of cp', $crossNotRun, function () use ($results) {
        $c = t_ratio($results, 'cross_fs', GIB, 'fastcopy', 'cp');
        return [$c >= 0.95, sprintf('%.2f of cp (need ≥ 0.95)', $c) . best($results, 'cross_fs', GIB, 'fastcopy', 'cp')];
    });
    // "No slower" allows 2%: where both sides make the very same syscall
    // (one copy_file_range), a strict ≥ 1.00 would be a coin toss.
    $add('same filesystem 1 GiB: no slower than stock', missing($results, 'same_fs', GIB, ['fastcopy', 'stock']), function () use ($results) {
        $s = t_ratio($results, 'same_fs', GIB, 'fastcopy', 'stock');
        return [$s >= 0.98, sprintf('%.3f× stock (need ≥ 0.98: no slower, within 2%% noise)', $s) . best($results, 'same_fs', GIB, 'fastcopy', 'stock')];
    });
    $small = null;
    foreach ($results as $r) {
        if ($r['case'] === 'small') {
            $small = $r;
        }
    }
    $smallNotRun = missing($results, 'small', 4 * KIB, ['fastcopy', 'stock']);
    if ($smallNotRun === null && ($small['count'] ?? 0) < 1000) {
        $smallNotRun = "not run (only {$small['count']} files in this mode)";
    }
    $add('thousands of 4 KiB copies: no slower than stock', $smallNotRun, function () use ($results) {
        $s = t_ratio($results, 'small', 4 * KIB, 'fastcopy', 'stock');
        return [$s >= 0.98, sprintf('%.3f× stock (need ≥ 0.98: no slower, within 2%% noise)', $s) . best($results, 'small', 4 * KIB, 'fastcopy', 'stock')];
    });
    $sysNotRun = missing($results, 'tcp', GIB, ['fastcopy', 'stock']);
    if ($sysNotRun === null && (find_row($results, 'tcp', GIB, 'fastcopy')['syscalls'] === null || find_row($results, 'tcp', GIB, 'stock')['syscalls'] === null)) {
        $sysNotRun = 'not run (no strace pass)';
    }
    $add('file→TCP 1 GiB syscalls: ≤ 1/100 of stock', $sysNotRun, function () use ($results) {
        $f = find_row($results, 'tcp', GIB, 'fastcopy')['syscalls']['copy'];
        $s = find_row($results, 'tcp', GIB, 'stock')['syscalls']['copy'];
        return [$f * 100 <= $s, sprintf('%d vs stock %d during the copy (1/%.0f; need ≤ 1/100)', $f, $s, $f ? $s / $f : INF)];
    });
    $add('peak RSS, 4 GiB → php://output, output_buffering=4096: ≤ stock + 16 MiB', missing($results, 'rss_output', 4 * GIB, ['fastcopy', 'stock']), function () use ($results) {
        $f = find_row($results, 'rss_output', 4 * GIB, 'fastcopy')['maxrss_kb'];
        $s = find_row($results, 'rss_output', 4 * GIB, 'stock')['maxrss_kb'];
        $d = sprintf('fastcopy_stream %.1f MiB vs stock %.1f MiB (%+.1f MiB; need ≤ +16)', $f / 1024, $s / 1024, ($f - $s) / 1024);
        $ro = find_row($results, 'rss_output', 4 * GIB, 'readfile_ov');
        $rs = find_row($results, 'rss_output', 4 * GIB, 'readfile');
        $ok = $f - $s <= 16 * 1024;
        if ($ro && $rs) {
            $d .= sprintf('; readfile+override %.1f MiB vs stock readfile %.1f MiB', $ro['maxrss_kb'] / 1024, $rs['maxrss_kb'] / 1024);
            $ok = $ok && $ro['maxrss_kb'] - $rs['maxrss_kb'] <= 16 * 1024;
        }
        return [$ok, $d];
    });
    $fpm = null;
    if ($http === null) {
        $fpm = 'not run (HTTP case runs with --full or --http)';
    } elseif (!empty($http['error'])) {
        $fpm = 'not run (' . $http['error'] . ')';
    } else {
        $fpm = missing($results, 'http', $http['size'], ['fastcopy', 'stock']);
    }
    if ($fpm === null) {
        // /proc counts CPU in 10 ms ticks: below ~0.2 s in all the ratio is noise.
        $st = find_row($results, 'http', $http['size'], 'stock');
        $cpu = $st['cpu_per_gib'] * $st['n'] * $st['bytes'] / GIB;
        if ($cpu < 0.2) {
            $fpm = sprintf('not run (stock used %.2f CPU s in all: too little to measure at %s per request)', $cpu, human_size($http['size']));
        }
    }
    $add('PHP-FPM worker CPU per GiB served: ≤ 0.5× stock', $fpm, function () use ($results, $http) {
        $f = find_row($results, 'http', $http['size'], 'fastcopy')['cpu_per_gib'];
        $s = find_row($results, 'http', $http['size'], 'stock')['cpu_per_gib'];
        return [$f <= 0.5 * $s, sprintf('%.3f s/GiB vs stock %.3f s/GiB (%.2f×; need ≤ 0.50)', $f, $s, $s > 0 ? $f / $s : INF)];
    });
    // The fastcgi path (issue 10): worker CPU against stock, and the whole
    // server's (nginx + worker) against the override's output-layer path.
    foreach (['unix' => ['', 0.3], 'tcp' => ['_tcp', 0.4]] as $listen => [$sfx, $max]) {
        $ids = ["readfile$sfx", "readfile_ov$sfx", "dav$sfx", "dav_ov$sfx"];
        $notRun = $fpm ?? missing($results, 'http', $http['size'], $ids);
        $add(sprintf('fastcgi path, %s pool: worker CPU per GiB ≤ %.1f× stock (readfile, sabre/dav)', $listen === 'unix' ? 'unix-socket' : 'TCP', $max), $notRun,
            function () use ($results, $http, $sfx, $max) {
                $ok = true;
                $d = [];
                foreach (['readfile' => 'readfile', 'dav' => 'sabre/dav'] as $id => $what) {
                    $f = find_row($results, 'http', $http['size'], "{$id}_ov$sfx")['cpu_per_gib'];
                    $s = find_row($results, 'http', $http['size'], "$id$sfx")['cpu_per_gib'];
                    $ok = $ok && $f <= $max * $s;
                    $d[] = sprintf('%s %.3f vs stock %.3f s/GiB (%.2f×)', $what, $f, $s, $s > 0 ? $f / $s : INF);
                }
                // What the kernel charges a sender of these records on this machine, PHP or not (by
                // the splice route, the path's own on either pool socket).
                $c = find_row($results, 'http', $http['size'], "cref$sfx");
                $s = find_row($results, 'http', $http['size'], "readfile$sfx")['cpu_per_gib'];
                $floor = $c && $s > 0
                    ? sprintf('; the C floor (same syscalls, no PHP) %.3f s/GiB = %.2f× stock readfile', $c['cpu_per_gib'], $c['cpu_per_gib'] / $s) : '';
                return [$ok, implode('; ', $d) . sprintf('; need ≤ %.2f', $max) . $floor];
            });
    }
    // Nextcloud's shape (issue 17): the wrapper seen through, the fastcgi path under it.
    foreach (['unix' => ['', 0.3], 'tcp' => ['_tcp', 0.4]] as $listen => [$sfx, $max]) {
        $ids = ["nextcloud$sfx", "nextcloud_ov$sfx", "nextcloud_through$sfx", "dav_ov$sfx"];
        $add(sprintf('Nextcloud shape (CallbackWrapper + sabre/http), %s pool: worker CPU per GiB ≤ %.1f× stock, server CPU below the override through the wrapper', $listen === 'unix' ? 'unix-socket' : 'TCP', $max),
            $fpm ?? missing($results, 'http', $http['size'], $ids), function () use ($results, $http, $sfx, $max) {
                $row = fn (string $id) => find_row($results, 'http', $http['size'], $id);
                $f = $row("nextcloud_ov$sfx");
                $s = $row("nextcloud$sfx");
                $t = $row("nextcloud_through$sfx");
                $u = $row("dav_ov$sfx");
                $ok = $f['cpu_per_gib'] <= $max * $s['cpu_per_gib'] && $f['server_cpu_per_gib'] < $t['server_cpu_per_gib'];
                return [$ok, sprintf('worker %.3f vs stock %.3f s/GiB (%.2f×; need ≤ %.2f); unwrapped sabre/dav on the path %.3f; server %.3f vs %.3f s/GiB through the wrapper',
                    $f['cpu_per_gib'], $s['cpu_per_gib'], $s['cpu_per_gib'] > 0 ? $f['cpu_per_gib'] / $s['cpu_per_gib'] : INF, $max,
                    $u['cpu_per_gib'], $f['server_cpu_per_gib'], $t['server_cpu_per_gib'])];
            });
    }
    $ids = [];
    foreach (['', '_tcp'] as $sfx) {
        array_push($ids, "readfile_layer$sfx", "readfile_ov$sfx", "dav_layer$sfx", "dav_ov$sfx");
    }
    $add('fastcgi path: server CPU per GiB (nginx + worker) below the output-layer path', $fpm ?? missing($results, 'http', $http['size'], $ids),
        function () use ($results, $http) {
            $ok = true;
            $d = [];
            foreach (['' => 'unix', '_tcp' => 'TCP'] as $sfx => $listen) {
                foreach (['readfile' => 'readfile', 'dav' => 'sabre/dav'] as $id => $what) {
                    $f = find_row($results, 'http', $http['size'], "{$id}_ov$sfx")['server_cpu_per_gib'];
                    $l = find_row($results, 'http', $http['size'], "{$id}_layer$sfx")['server_cpu_per_gib'];
                    $ok = $ok && $f < $l;
                    $d[] = sprintf('%s %s %.3f vs %.3f s/GiB', $listen, $what, $f, $l);
                }
            }
            return [$ok, implode('; ', $d)];
        });

    // The hand-over (issue 34): the whole server within 1.1× the front end's own static
    // download of the same file, in the same run.
    foreach (['unix' => '', 'tcp' => '_tcp'] as $listen => $sfx) {
        $add(sprintf("hand-over behind nginx, %s pool: whole server CPU per GiB (nginx + worker) ≤ 1.1× nginx's own static download (readfile, sabre/dav, Nextcloud shape)",
            $listen === 'unix' ? 'unix-socket' : 'TCP'), $fpm ?? missing($results, 'http', $http['size'], ['nginx', "readfile_ho$sfx", "dav_ho$sfx", "nextcloud_ho$sfx"]),
            fn () => handover_target($results, 'http', $http['size'], 'nginx', '', $sfx));
    }

    // Issue 35: behind nginx, the fastcgi path's own route (the splice route, to a TCP pool's web
    // server on this host as to a unix pool's) makes the whole server (nginx + worker) at most 0.8×
    // stock; on TCP the copy route's figures (fastcopy.same_host=copy) beside it.
    foreach (['unix' => '', 'tcp' => '_tcp'] as $listen => $sfx) {
        $add(sprintf('fastcgi path behind nginx, %s: whole server CPU per GiB (nginx + worker) ≤ 0.8× stock (readfile, sabre/dav, Nextcloud shape)',
            $listen === 'unix' ? 'unix-socket pool (the splice route)' : 'TCP pool, nginx on this host (the splice route, the default)'),
            $fpm ?? missing($results, 'http', $http['size'], ["readfile$sfx", "readfile_ov$sfx", "dav$sfx", "dav_ov$sfx", "nextcloud$sfx", "nextcloud_ov$sfx"]),
            function () use ($results, $http, $sfx) {
                $row = fn (string $id) => find_row($results, 'http', $http['size'], $id);
                $ok = true;
                $d = [];
                foreach (['readfile' => 'readfile', 'dav' => 'sabre/dav', 'nextcloud' => 'Nextcloud'] as $id => $what) {
                    $f = $row("{$id}_ov$sfx")['server_cpu_per_gib'];
                    $s = $row("$id$sfx")['server_cpu_per_gib'];
                    $ok = $ok && $f <= 0.8 * $s;
                    $cp = $row("{$id}_cp$sfx");
                    $d[] = sprintf('%s %.3f vs stock %.3f s/GiB (%.2f×)', $what, $f, $s, $s > 0 ? $f / $s : INF)
                        . ($cp ? sprintf(', copy route %.3f (%.2f×)', $cp['server_cpu_per_gib'], $s > 0 ? $cp['server_cpu_per_gib'] / $s : INF) : '');
                }
                return [$ok, implode('; ', $d) . '; need ≤ 0.80×'];
            });
    }

    $lt = $http['lighttpd'] ?? null;
    $ltNotRun = match (true) {
        $lt === null => 'not run (HTTP case runs with --full or --http)',
        !empty($lt['error']) => 'not run (' . $lt['error'] . ')',
        $lt['size'] < GIB => 'not run (' . human_size($lt['size']) . ' per request: too little to measure)',
        default => null,
    };
    foreach (['unix' => '', 'tcp' => '_tcp'] as $listen => $sfx) {
        $add(sprintf("hand-over behind lighttpd, %s pool: whole server CPU per GiB (lighttpd + worker) ≤ 1.1× lighttpd's own static download (readfile, sabre/dav, Nextcloud shape)",
            $listen === 'unix' ? 'unix-socket' : 'TCP'), $ltNotRun ?? missing($results, 'http_lighttpd', $lt['size'], ['lt_static', "lt_readfile_ho$sfx", "lt_dav_ho$sfx", "lt_nextcloud_ho$sfx"]),
            fn () => handover_target($results, 'http_lighttpd', $lt['size'], 'lt_static', 'lt_', $sfx));
    }

    // A small page's wait while slow downloads hold the pool's workers.
    $oc = $http['occupancy'] ?? null;
    $ocRows = array_column($oc['rows'] ?? [], null, 'contender');
    $add("occupancy, Nextcloud's nginx settings, 2 workers, 3 clients at 8 MiB/s: a small page's worst wait of 40 ≤ 0.1 s with the hand-over",
        match (true) {
            $oc === null => 'not run (HTTP case runs with --full or --http)',
            !empty($oc['error']) => 'not run (' . $oc['error'] . ')',
            $oc['shape']['pages'] < 40 => 'not run (' . $oc['shape']['pages'] . ' small requests, ' . human_size($oc['size']) . ' downloads in this mode)',
            default => array_filter($ocRows, fn (array $r): bool => $r['status'] !== 'ok') === [] ? null
                : 'not run (' . implode('; ', array_map(fn (array $r): string => "{$r['contender']}: {$r['status']}",
                    array_filter($ocRows, fn (array $r): bool => $r['status'] !== 'ok'))) . ')',
        }, function () use ($ocRows) {
            $ho = $ocRows['occ_ho'];
            $d = [];
            foreach ($ocRows as $r) {
                $d[] = sprintf('%s %s (rounds %s–%s)', $r['short'], fmt_time($r['worst_median']), fmt_time($r['worst_min']), fmt_time($r['worst_max']));
            }
            return [$ho['worst_median'] <= 0.1, 'worst waits, medians of the rounds: ' . implode('; ', $d) . ' (need ≤ 100 ms with the hand-over)'];
        });

    // The apache path (issue 18), EnableSendfile unset: the child's syscalls near
    // Apache's own static sendfile, and its CPU against stock.
    $ap = $http['apache'] ?? null;
    $apNotRun = match (true) {
        $ap === null => 'not run (HTTP case runs with --full or --http)',
        !empty($ap['error']) => 'not run (' . $ap['error'] . ')',
        default => missing($results, 'http_apache', $ap['size'], ['ap_static', 'ap_readfile', 'ap_readfile_ov', 'ap_dav', 'ap_dav_ov']),
    };
    if ($apNotRun === null && $ap['size'] < GIB) {
        $apNotRun = 'not run (' . human_size($ap['size']) . ' per request: too little to measure)';
    }
    $add('apache path: Apache child syscalls per GiB within 2× Apache static sendfile (readfile, sabre/dav)', $apNotRun,
        function () use ($results, $ap) {
            $floor = find_row($results, 'http_apache', $ap['size'], 'ap_static')['syscalls']['per_gib'] ?? null;
            $ok = $floor !== null;
            $d = [];
            foreach (['ap_readfile_ov' => 'readfile', 'ap_dav_ov' => 'sabre/dav'] as $id => $what) {
                $n = find_row($results, 'http_apache', $ap['size'], $id)['syscalls']['per_gib'] ?? null;
                $ok = $ok && $n !== null && $n <= 2 * $floor;
                $d[] = sprintf('%s %s', $what, $n ?? '?');
            }
            return [$ok, implode('; ', $d) . sprintf(' syscalls/GiB vs static %s (need ≤ 2×)', $floor ?? '?')];
        });
    $add('apache path: Apache child CPU per GiB ≤ 0.35× stock (readfile, sabre/dav; EnableSendfile unset)', $apNotRun,
        function () use ($results, $ap) {
            $ok = true;
            $d = [];
            foreach (['readfile' => 'readfile', 'dav' => 'sabre/dav'] as $id => $what) {
                $f = find_row($results, 'http_apache', $ap['size'], "ap_{$id}_ov")['cpu_per_gib'];
                $s = find_row($results, 'http_apache', $ap['size'], "ap_$id")['cpu_per_gib'];
                $ok = $ok && $f <= 0.35 * $s;
                $d[] = sprintf('%s %.3f vs stock %.3f s/GiB (%.2f×)', $what, $f, $s, $s > 0 ? $f / $s : INF);
            }
            $floor = find_row($results, 'http_apache', $ap['size'], 'ap_static')['cpu_per_gib'];
            return [$ok, implode('; ', $d) . sprintf('; need ≤ 0.35; Apache static sendfile %.3f s/GiB', $floor)];
        });
    $add('apache path: Apache child CPU per GiB within 1.1× Apache static sendfile (readfile, sabre/dav; EnableSendfile unset)', $apNotRun,
        function () use ($results, $ap) {
            $floor = find_row($results, 'http_apache', $ap['size'], 'ap_static')['cpu_per_gib'];
            $ok = true;
            $d = [];
            foreach (['readfile' => 'readfile', 'dav' => 'sabre/dav'] as $id => $what) {
                $f = find_row($results, 'http_apache', $ap['size'], "ap_{$id}_ov")['cpu_per_gib'];
                $ok = $ok && $f <= 1.1 * $floor;
                $d[] = sprintf('%s %.3f s/GiB (%.2f×)', $what, $f, $floor > 0 ? $f / $floor : INF);
            }
            return [$ok, implode('; ', $d) . sprintf(' vs static %.3f s/GiB (need ≤ 1.10×)', $floor)];
        });

    // Uploads (issue 23): each shape's worker CPU within 1.3× of the cheapest exact
    // floor, per pool socket: of fcup keeping a spool from its buffer and fcup splicing
    // into the file and copy_file_range()ing the spool from it, the cheaper in this run.
    $up = $http['upload'] ?? null;
    foreach (['unix' => '', 'tcp' => '_tcp'] as $listen => $sfx) {
        $ids = [$up['floor'][$listen] ?? "upref_spool$sfx", "up_copy_ov$sfx", "up_fpc_ov$sfx", "up_nextcloud_ov$sfx"];
        $upNotRun = match (true) {
            $up === null => 'not run (HTTP case runs with --full or --http)',
            !empty($up['error']) => 'not run (' . $up['error'] . ')',
            default => missing($results, 'http_upload', $up['size'], $ids),
        };
        if ($upNotRun === null && $up['size'] < GIB) {
            $upNotRun = 'not run (' . human_size($up['size']) . ' per request: too little to measure)';
        }
        $add(sprintf('uploads, %s pool (%s): worker CPU per GiB within 1.3× the cheapest C floor that keeps a spool (copy, file_put_contents, Nextcloud)',
            $listen === 'unix' ? 'unix-socket' : 'TCP', $up['upload_fs'] ?? '?'), $upNotRun, function () use ($results, $up, $sfx, $ids) {
                $fr = find_row($results, 'http_upload', $up['size'], $ids[0]);
                $floor = $fr['cpu_per_gib'];
                $ok = true;
                $d = [];
                foreach (['copy' => 'copy', 'fpc' => 'file_put_contents', 'nextcloud' => 'Nextcloud'] as $id => $what) {
                    $f = find_row($results, 'http_upload', $up['size'], "up_{$id}_ov$sfx")['cpu_per_gib'];
                    $ok = $ok && $f <= 1.3 * $floor;
                    $d[] = sprintf('%s %.3f (%.2f×)', $what, $f, $floor > 0 ? $f / $floor : INF);
                }
                return [$ok, implode('; ', $d) . sprintf(' s/GiB vs floor %.3f (%s; need ≤ 1.30×)', $floor, $fr['short'])];
            });
    }
    return $t;
}

/** [met, figures]: the whole server of the hand-over rows ("$prefix{readfile,dav,nextcloud}_ho$sfx") against the front end's static row ($static). */
function handover_target(array $results, string $case, int $size, string $static, string $prefix, string $sfx): array
{
    $floor = find_row($results, $case, $size, $static)['server_cpu_per_gib'];
    $ok = true;
    $d = [];
    foreach (['readfile' => 'readfile', 'dav' => 'sabre/dav', 'nextcloud' => 'Nextcloud'] as $id => $what) {
        $f = find_row($results, $case, $size, "$prefix{$id}_ho$sfx")['server_cpu_per_gib'];
        $ok = $ok && $f <= 1.1 * $floor;
        $d[] = sprintf('%s %.3f (%.2f×)', $what, $f, $floor > 0 ? $f / $floor : INF);
    }
    return [$ok, implode('; ', $d) . sprintf(' s/GiB vs static %.3f s/GiB (need ≤ 1.10×)', $floor)];
}

function fmt_time(?float $s): string
{
    return match (true) {
        $s === null => '–',
        $s >= 1 => sprintf('%.3f s', $s),
        $s >= 1e-3 => sprintf('%.2f ms', $s * 1e3),
        default => sprintf('%.1f µs', $s * 1e6),
    };
}

function fmt_ratio(?float $x): string
{
    return $x === null ? '–' : sprintf('%.2f×', $x);
}

function fmt_engine(?array $e): string
{
    if (!$e) {
        return '';
    }
    $parts = [];
    foreach ($e as $path => $s) {
        if (!$s['calls'] && !$s['bytes'] && !$s['fallbacks']) {
            continue;
        }
        $p = $s['calls'] || $s['bytes'] ? "$path " . human_size($s['bytes']) . " in {$s['calls']}" : $path;
        foreach ($s['fallbacks'] as $err => $n) {
            $p .= ", fell back on $err ×$n";
        }
        $parts[] = $p;
    }
    return implode('; ', $parts);
}

/**
 * Syscall count and the three commonest: of the copy phase (the case tables),
 * or scaled to one GiB (the HTTP table, from a whole request's `strace -c`).
 */
function fmt_syscalls(?array $s, bool $perGib = false): string
{
    if ($s === null) {
        return '–';
    }
    $scale = $perGib ? $s['per_gib'] / max(1, $s['total']) : 1;
    $top = [];
    foreach (array_slice($s['by_name'], 0, 3, true) as $name => $n) {
        $top[] = $name . ' ' . number_format($n * $scale);
    }
    if (!$perGib && $s['whole_process']) {
        return number_format($s['copy']) . ' (whole process)';
    }
    return number_format($perGib ? $s['per_gib'] : $s['copy']) . ($top ? ' (' . implode(', ', $top) . ')' : '');
}

/**
 * A case measured at both ends (the receiver reading, its CPU from /proc/PID/schedstat):
 * per contender the copy's time, the sender's CPU, the receiver's and their sum, each
 * against stock, the sum against the cheapest route of the run; then which route that was.
 */
function both_ends_table(array $rows): string
{
    $cpu = static fn (?float $s): string => $s === null ? '–' : fmt_time($s);
    $md = md_table('| contender | median | min–max | GiB/s | vs stock | sender CPU | receiver CPU | both ends (min–max) | sender / receiver / both vs stock | both vs cheapest | syscalls | engine |',
        '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|', $rows, fn (array $r): string => sprintf(
            "| %s | %s | %s–%s | %.2f | %s | %s | %s | %s (%s–%s) | %s / %s / %s | %s | %s | %s |\n",
            ($r['cheapest_both'] ?? null) === $r['contender'] ? "**{$r['label']}**" : $r['label'],
            fmt_time($r['wall_median']), fmt_time($r['wall_min']), fmt_time($r['wall_max']), $r['gib_s'], fmt_ratio($r['vs_stock']),
            $cpu($r['cpu_median']), $cpu($r['receiver_cpu_median']), $cpu($r['both_cpu_median']), $cpu($r['both_cpu_min']), $cpu($r['both_cpu_max']),
            fmt_ratio($r['cpu_vs_stock'] ?? null), fmt_ratio($r['receiver_vs_stock'] ?? null), fmt_ratio($r['both_vs_stock'] ?? null),
            fmt_ratio($r['both_vs_cheapest'] ?? null), fmt_syscalls($r['syscalls']), fmt_engine($r['engine'])));
    $ok = array_filter($rows, fn (array $r): bool => $r['status'] === 'ok' && $r['both_cpu_median'] !== null);
    if ($ok === []) {
        return $md;
    }
    $byId = array_column($ok, null, 'contender');
    $cheap = $byId[reset($ok)['cheapest_both']];
    $fast = array_reduce($ok, fn (?array $a, array $r): array => $a === null || $r['wall_median'] < $a['wall_median'] ? $r : $a);
    $fc = $byId['fastcopy'] ?? null;
    $md .= sprintf("\nCheapest for both ends together in this run: **%s**, %s of CPU (sender %s + receiver %s)",
        $cheap['label'], fmt_time($cheap['both_cpu_median']), fmt_time($cheap['cpu_median']), fmt_time($cheap['receiver_cpu_median']))
        . ($fast['contender'] === $cheap['contender'] ? ', also the fastest' : sprintf('; fastest: %s, %s', $fast['label'], fmt_time($fast['wall_median'])))
        . ($fc !== null && $fc['contender'] !== $cheap['contender'] ? sprintf('; fastcopy_stream() with its default route: %.2f× the cheapest\'s CPU, %.2f× stock\'s speed',
            $fc['both_vs_cheapest'], $fc['vs_stock'] ?? 0) : '')
        . ".\n";
    return $md;
}

/**
 * A markdown table: $header, $align (a "---" or "--:" per column), then a row per
 * result: $row($r) for one that ran, and for one that did not its label and status,
 * the other cells empty ($failed($r) where they are not).
 */
function md_table(string $header, string $align, array $rows, callable $row, ?callable $failed = null): string
{
    $md = "$header\n$align\n";
    foreach ($rows as $r) {
        if ($r['status'] === 'ok') {
            $md .= $row($r);
        } elseif ($failed !== null) {
            $md .= $failed($r);
        } else {
            $md .= "| {$r['label']} | {$r['status']} |" . str_repeat(' |', substr_count($header, '|') - 3) . "\n";
        }
    }
    return $md;
}

/** What a download row's checks found: the body's sha256, and how many requests were handed over whole. */
function fmt_checked(array $r): string
{
    $sha = match ($r['sha256_equal'] ?? null) {
        true => 'sha256 equal',
        false => 'sha256 differs',
        default => '–',
    };
    return $sha . (isset($r['handed_over']) ? "; {$r['handed_over']} × handed over" : '')
        . (isset($r['route']) ? '; route: ' . ($r['route'] === 'writev' ? 'copies (writev)' : 'splice') : '');
}

/**
 * A download case's table (nginx's or lighttpd's, $front): per contender the time, the
 * worker's CPU, the front end's and the whole server's, that against the front end
 * sending the file itself (the row without a pool), syscalls, the comparisons and checks.
 */
function download_table(array $rows, string $front): string
{
    return md_table("| contender | median | GiB/s | worker CPU s/GiB (min–max) | $front CPU s/GiB | server CPU s/GiB | server CPU vs $front static | worker syscalls/GiB | $front syscalls/GiB | compared with | worker CPU vs it | server CPU vs layer | checked | engine (one request) |",
        '|---|--:|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|---|---|', $rows, function (array $r) use ($front): string {
            $static = $r['listen'] === null;
            // The C rows' time is into a drain, not curl's through the front end: not comparable, not shown.
            $c = $r['cpu_process'] === 'C sender';
            return sprintf("| %s | %s | %s | %.3f (%.3f–%.3f) | %s | %.3f | %s | %s | %s | %s | %s | %s | %s | %s |\n", $r['label'], $c ? '–' : fmt_time($r['wall_median']),
                $c ? '–' : sprintf('%.2f', $r['gib_s']), $r['cpu_per_gib'], $r['cpu_min_per_gib'], $r['cpu_max_per_gib'], match (true) {
                    $static => '(same)',
                    $r["{$front}_cpu_per_gib"] === null => '–',
                    default => sprintf('%.3f', $r["{$front}_cpu_per_gib"]),
                },
                $r['server_cpu_per_gib'], fmt_ratio($r['server_vs_static'] ?? null), fmt_syscalls($r['syscalls'], true),
                $static ? '(same)' : fmt_syscalls($r["{$front}_syscalls"], true),
                $r['base'] ?? '', fmt_ratio($r['cpu_vs_stock']), fmt_ratio($r['server_vs_layer'] ?? null), $c ? '–' : fmt_checked($r),
                fmt_engine($r['engine']));
        });
}

/**
 * The whole server's cost of a download as issue 34 states it: per workload and way of
 * sending, $front's CPU + the worker's = the whole server's, and that against $front
 * sending the same file itself in the same run ($static, the row id); one column per
 * pool socket. Rows are "$prefix$workload$kind$sfx" ('' stock, _ov the fastcgi path,
 * _ho the hand-over; '' unix, _tcp TCP).
 */
function whole_server_table(array $rows, string $front, string $static, string $prefix, string $staticLabel): string
{
    $byId = array_column($rows, null, 'contender');
    $st = $byId[$static] ?? null;
    if ($st === null || $st['status'] !== 'ok') {
        return "The whole server against $front's own static download: not run ({$front} static: " . ($st['status'] ?? 'missing') . ")\n";
    }
    // $stock: the same workload on stock PHP on the same pool socket (issue 35's targets are against it).
    $cell = static function (?array $r, ?array $stock, string $none = '–') use ($front): string {
        if ($r === null || $r['status'] !== 'ok') {
            return $r === null ? $none : (str_starts_with($r['status'], 'n/a') ? 'n/a' : 'failed');
        }
        $vsStock = $r !== $stock && $stock !== null && $stock['status'] === 'ok' && $stock['server_cpu_per_gib'] > 0
            ? sprintf('; %.2f× stock', $r['server_cpu_per_gib'] / $stock['server_cpu_per_gib']) : '';
        return sprintf('%.2f + %.2f = **%.2f** (%.2f×%s)', $r["{$front}_cpu_per_gib"], $r['cpu_per_gib'], $r['server_cpu_per_gib'], $r['server_vs_static'], $vsStock);
    };
    $md = "The whole server, CPU seconds per GiB, medians: $front + the worker = **the whole server** (× $front's own static "
        . "download of the same file in this run; × the same workload on stock PHP on the same pool socket).\n\n| " . human_size($st['size'])
        . " download | unix-socket pool | TCP pool (127.0.0.1) |\n|---|--:|--:|\n"
        . sprintf("| %s | **%.2f** (1.00×) | **%.2f** (1.00×) |\n", $staticLabel, $st['server_cpu_per_gib'], $st['server_cpu_per_gib']);
    $workloads = ['readfile' => 'readfile()', 'dav' => "sabre's 4 MiB loop (sabre/dav GET)", 'nextcloud' => "Nextcloud's shape (CallbackWrapper + sabre's loop)"];
    // The fastcgi path's two routes (issue 35): its own choice (the splice route, on a unix pool and
    // on a TCP pool whose web server is on this host alike), and on TCP the copy route beside it.
    $kinds = ['' => 'stock', '_ov' => 'fastcopy.override=1, fastcgi path (its own route: the splice route)',
        '_cp' => 'fastcopy.override=1, fastcgi path, copy route (fastcopy.same_host=copy)', '_ho' => 'fastcopy.override=1, hand-over'];
    foreach ($workloads as $w => $what) {
        foreach ($kinds as $kind => $how) {
            if ($kind === '_cp' && !isset($byId["$prefix$w{$kind}_tcp"])) {
                continue; // a run from before the routes
            }
            $md .= "| $what, $how | " . $cell($byId["$prefix$w$kind"] ?? null, $byId["$prefix$w"] ?? null, $kind === '_cp' ? 'none (a unix pool always splices)' : '–')
                . ' | ' . $cell($byId["$prefix$w{$kind}_tcp"] ?? null, $byId["$prefix{$w}_tcp"] ?? null) . " |\n";
        }
    }
    return $md;
}

function markdown(array $meta, array $results, array $targets, ?array $http): string
{
    $md = "# fastcopy benchmark ({$meta['mode']} mode)\n\n";
    $md .= "{$meta['date']} · commit `" . ($meta['commit'] ?: 'none') . "` · PHP {$meta['php']} · Linux {$meta['kernel']} · {$meta['cpu']} · {$meta['memory_gib']} GiB RAM  \n";
    $md .= "Median of {$meta['runs']} runs per contender" . ($meta['warmup'] ? ' after a warm-up run' : ' (no warm-up)')
        . ", contenders interleaved, each run a fresh process, files in the page cache. Extension: {$meta['extension']}; override: {$meta['override']}. "
        . "Filesystems: {$meta['fs']}. Receivers: {$meta['drain']}. strace pass: {$meta['strace']}. "
        . "The VM's free page reporting: {$meta['page_reporting']}. "
        . "Load: {$meta['load']}; {$meta['quiet']}. Took {$meta['seconds']} s.\n\n";

    $md .= "## Targets\n\n| target | result | figures |\n|---|---|---|\n";
    foreach ($targets as $t) {
        $md .= "| {$t['target']} | **{$t['result']}** | {$t['detail']} |\n";
    }

    $md .= "\n## Results\n\nTime is the copy alone (inside the process, open/exec not included, except per file in the small-files case); "
        . "CPU is user+sys of the copying process during the copy; syscalls are those during the copy (separate strace run); "
        . "peak RSS is the whole process's. vs stock = stock time / this time (above 1 is faster); vs C = C reference time / this time. "
        . "The cases \"the receiver reading\" measure both ends of a socket or pipe on this host: the receiver read()s into a 1 MiB buffer "
        . "like a real consumer, and its CPU (the drain's /proc/PID/schedstat around the connection; a pipe's drain counts its own from its "
        . "first read to EOF) is shown beside the sender's; CPU ratios are this row's / stock's (below 1 is cheaper), and \"both vs cheapest\" "
        . "is the two ends' CPU against the contender whose two ends cost least in this run (in bold).\n";
    $groups = [];
    foreach ($results as $r) {
        $groups[$r['case'] . '@' . $r['size']][] = $r;
    }
    foreach ($groups as $rows) {
        $f = $rows[0];
        if (in_array($f['case'], HTTP_CASES, true)) {
            continue;
        }
        $size = $f['count'] ? "{$f['count']} × " . human_size($f['size']) : human_size($f['size']);
        $md .= "\n### {$f['case_label']}, $size\n\n";
        if (array_key_exists('both_cpu_median', $f)) {
            $md .= both_ends_table($rows);
            continue;
        }
        $md .= md_table('| contender | median | min–max | GiB/s | CPU | syscalls | peak RSS | vs stock | vs C | engine |',
            '|---|--:|--:|--:|--:|--:|--:|--:|--:|---|', $rows, fn (array $r): string => sprintf(
                "| %s | %s | %s–%s | %.2f | %s | %s | %.1f MiB | %s | %s | %s |\n",
                $r['label'], fmt_time($r['wall_median']), fmt_time($r['wall_min']), fmt_time($r['wall_max']), $r['gib_s'],
                fmt_time($r['cpu_median']), fmt_syscalls($r['syscalls']), $r['maxrss_kb'] / 1024,
                fmt_ratio($r['vs_stock']), fmt_ratio($r['vs_ref']), fmt_engine($r['engine'])));
    }
    if ($http !== null) {
        $md .= "\n### HTTP: nginx → PHP-FPM (pm=static, 1 worker), " . human_size($http['size'] ?? 0) . " per request, curl as the client\n\n";
        if (!empty($http['error'])) {
            $md .= "not run: {$http['error']}\n";
        } else {
            $md .= download_table($http['rows'], 'nginx');
            $md .= "\nTime is curl's time_total per request. CPU is what the one FPM worker and the one nginx worker used "
                . "around each request (/proc/PID/schedstat, after both went idle), per GiB: the median of the runs; "
                . "server CPU is nginx + worker (nginx alone for the static row). Syscalls come from a separate request with "
                . "`strace -c` attached to the worker and to nginx. Each row is compared with the same code on stock PHP "
                . "(worker CPU vs it: below 1 is cheaper), and the fastcgi rows' server CPU with the override on the output-layer path "
                . "(fastcopy.disable=fastcgi). The C rows send the same FastCGI records as the fastcgi path with the same syscalls "
                . "(bench/ref/fcref.c, mode fastcgi) into the bench's drain: their CPU is the sender's (user + system), the floor "
                . "for any worker on this kernel; on TCP loopback the sender is also charged the receiving side's protocol work. "
                . "The hand-over rows run in a pool of their own behind a location that includes conf/nginx's files (the internal "
                . "location in the server block, its parameters in the PHP location; X-Sabre-Version given back besides ETag and "
                . "Last-Modified): the worker's fastcopy_stats() read around every request must say it was handed over whole. "
                . "Checked: every request's byte count, and one more request per row whose body's sha256 is the file's.\n\n"
                . whole_server_table($http['rows'], 'nginx', 'nginx', '', 'nginx static (sendfile on)');
        }
    }
    $ap = $http['apache'] ?? null;
    if ($ap !== null) {
        $md .= "\n### HTTP: Apache 2.4 prefork + mod_php (1 child), " . human_size($ap['size']) . " per request, curl as the client\n\n";
        if (!empty($ap['error'])) {
            $md .= "not run: {$ap['error']}\n";
        } else {
            $st = array_column($ap['rows'], null, 'contender')['ap_static'] ?? null;
            $stOk = $st !== null && $st['status'] === 'ok';
            $stCpu = $stOk ? sprintf('%.3f', $st['cpu_per_gib']) : '–';
            $stSys = $stOk && $st['syscalls'] ? number_format($st['syscalls']['per_gib']) : '–';
            $md .= md_table('| contender | median | GiB/s | child CPU s/GiB (min–max) | static CPU s/GiB | CPU vs static | child syscalls/GiB | static syscalls/GiB | syscalls vs static | compared with | CPU vs it | CPU vs layer | engine (one request) |',
                '|---|--:|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|---|', $ap['rows'], fn (array $r): string => sprintf(
                    "| %s | %s | %.2f | %.3f (%.3f–%.3f) | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $r['label'], fmt_time($r['wall_median']),
                    $r['gib_s'], $r['cpu_per_gib'], $r['cpu_min_per_gib'], $r['cpu_max_per_gib'], $stCpu, fmt_ratio($r['cpu_vs_floor']),
                    fmt_syscalls($r['syscalls'], true), $stSys, fmt_ratio($r['syscalls_vs_floor']),
                    $r['base'] ?? '', fmt_ratio($r['cpu_vs_stock']), fmt_ratio($r['cpu_vs_layer']), fmt_engine($r['engine'])),
                fn (array $r): string => "| {$r['label']} | {$r['status']} | | | $stCpu | | | $stSys | | | | | |\n");
            $md .= "\nCPU is what the one Apache child (prefork, MaxRequestWorkers 1; PHP runs inside it) used around each "
                . "request (/proc/PID/schedstat, after it went idle), per GiB: the median of the runs, min–max beside it. "
                . "Syscalls come from a separate request with `strace -c` attached to the child. Three servers: stock (no "
                . "extension; it also serves the file itself from a location with EnableSendfile On: the floor), layer (the "
                . "override, fastcopy.disable=apache) and fc (the override; EnableSendfile unset, and Off under /nosendfile/). "
                . "On loopback the receiving side's protocol work is charged to the sender in some runs and not in others: "
                . "read every figure beside the static floor of the same run (static CPU and syscalls per GiB on every row, and the ratios to them).\n";
        }
    }
    $lt = $http['lighttpd'] ?? null;
    if ($lt !== null && empty($lt['not_asked'])) {
        $md .= "\n### HTTP: lighttpd 1.4 → PHP-FPM (pm=static, 1 worker), server.stream-response-body = 2, " . human_size($lt['size'])
            . " per request, curl as the client\n\n";
        if (!empty($lt['error'])) {
            $md .= "not run: {$lt['error']}\n";
        } else {
            $md .= "lighttpd as an operator serving large files through PHP runs it: stream-response-body 2 passes PHP's body on as "
                . "it comes, reading the worker at the client's pace (the default, 0, would hold each whole response in temp files "
                . "before sending it); the hand-over's scope adds x-sendfile for the data directory, the FASTCOPY_HANDOVER "
                . "declaration and server.range-requests = \"disable\" (bench/lib/http_lighttpd.php). Even so, where the client falls "
                . "behind, lighttpd moves part of PHP's body through temp files in server.upload-dirs (lighttpd-upload-*: pwritev, then "
                . "sendfile from them), more or less from one request to the next: part of its CPU on the stock and fastcgi rows.\n\n"
                . download_table($lt['rows'], 'lighttpd')
                . "\nCPU is what the one FPM worker and lighttpd (one process) used around each request (/proc/PID/schedstat, "
                . "after both went idle), per GiB: the median of the runs; server CPU is lighttpd + worker (lighttpd alone for "
                . "its static row). Syscalls come from a separate request with `strace -c` on both. The hand-over rows' worker "
                . "must say every request was handed over whole; every row's body is checked by sha256 once.\n\n"
                . whole_server_table($lt['rows'], 'lighttpd', 'lt_static', 'lt_', 'lighttpd static');
        }
    }
    $up = $http['upload'] ?? null;
    if ($up !== null && empty($up['not_asked'])) {
        $md .= "\n### HTTP uploads: curl PUT → nginx (fastcgi_request_buffering off, client_body_buffer_size 512k) → PHP-FPM (pm=static, 1 worker), "
            . human_size($up['size']) . " per request\n\n";
        if (!empty($up['error'])) {
            $md .= "not run: {$up['error']}\n";
        } else {
            $md .= "Stored file and PHP's spool (upload_tmp_dir) in `{$up['upload_dir']}` ({$up['upload_fs']}).\n\n"
                . md_table('| contender | median | GiB/s | worker CPU s/GiB (min–max) | nginx CPU s/GiB | worker syscalls/GiB | nginx syscalls/GiB | CPU vs stock | floor (cheapest with a spool) | CPU vs floor | CPU vs floor (no spool) | syscalls vs floor | sha256 | engine (one request) |',
                    '|---|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|---|', $up['rows'], fn (array $r): string => sprintf(
                        "| %s | %s | %.2f | %.3f (%.3f–%.3f) | %.3f | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $r['label'], fmt_time($r['wall_median']),
                        $r['gib_s'], $r['cpu_per_gib'], $r['cpu_min_per_gib'], $r['cpu_max_per_gib'], $r['nginx_cpu_per_gib'],
                        fmt_syscalls($r['syscalls'], true), fmt_syscalls($r['nginx_syscalls'], true), fmt_ratio($r['cpu_vs_stock']),
                        $r['floor'] ?? '–', fmt_ratio($r['cpu_vs_floor']), fmt_ratio($r['cpu_vs_nospool']), fmt_ratio($r['syscalls_vs_floor']),
                        $r['sha256_checked'] . ' × equal' . (!empty($r['spool_checked']) ? ', spool equal' : ''), fmt_engine($r['engine'])));
            $md .= "\nTime is curl's time_total for the PUT (the body read from the page cache). CPU is what the one FPM worker (or the "
                . "C responder) and the one nginx worker used around each request (/proc/PID/schedstat, after both went idle), per GiB: "
                . "the median of the runs, min–max beside it. Syscalls come from a separate request with `strace -c` on the worker and "
                . "on nginx. The C floors (bench/ref/fcup.c) are FastCGI responders behind the same nginx: each read() of the socket "
                . "parsed into records, the payloads written with one writev() to the file, and, for the floor that keeps a spool "
                . "(PHP keeps php://input's spool), the same iovec written to a spool file in upload_tmp_dir; the reflink floor reads "
                . "each record's header, splice()s its payload socket → pipe → file and copy_file_range()s every 256 KiB stored into "
                . "the spool (a reflink on XFS/btrfs, a kernel copy elsewhere). Of the two floors with a spool, the one with the lower "
                . "median CPU per GiB on the same pool socket is the cheapest exact floor, named in the floor column, and every ratio "
                . "to the floor is to it. sha256: how many PUTs of the row (warm-up, timed, strace, and for the floors with a spool one "
                . "more keeping the spool) stored a file whose sha256 equals the body's; \"spool equal\": that kept spool's did too.\n";
        }
    }
    return $md;
}

function write_outputs(array $cfg, array $meta, array $results, array $targets, ?array $http): void
{
    @mkdir($cfg['out'], 0777, true);
    $base = $cfg['out'] . '/' . $cfg['prefix'];
    $md = markdown($meta, $results, $targets, $http);
    if (isset($http['occupancy']) && empty($http['occupancy']['not_asked'])) {
        $md .= occupancy_markdown($http['occupancy']);
    }
    if (isset($http['server_upload']) && empty($http['server_upload']['not_asked'])) {
        $md .= server_upload_markdown($http['server_upload']);
    }
    $md .= charts($cfg + ['meta' => $meta], $results, $base);
    file_put_contents("$base.md", $md);
    // The parts whose rows are in $results are written without them.
    $json = ['meta' => $meta, 'targets' => $targets, 'results' => $results, 'http' => $http ? array_diff_key($http, ['rows' => 1, 'apache' => 1, 'lighttpd' => 1, 'upload' => 1])
        + (isset($http['apache']) ? ['apache' => array_diff_key($http['apache'], ['rows' => 1])] : [])
        + (isset($http['lighttpd']) ? ['lighttpd' => array_diff_key($http['lighttpd'], ['rows' => 1])] : [])
        + (isset($http['upload']) ? ['upload' => array_diff_key($http['upload'], ['rows' => 1])] : []) : null];
    $encoded = json_encode($json, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION);
    if ($encoded === false) {
        throw new RuntimeException('results do not encode as JSON: ' . json_last_error_msg());
    }
    file_put_contents("$base.json", $encoded . "\n");
    echo "\n", $md, "\nWrote $base.md, $base.json and the charts\n";
}
