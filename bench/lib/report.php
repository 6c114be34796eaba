<?php
// Turns the measured rows into the issue's targets, a markdown report, the
// same figures as JSON, and a gnuplot chart.
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

    $add('file→TCP 1 GiB: ≥ 2.0× stock and within 10% of C sendfile', missing($results, 'tcp', GIB, ['fastcopy', 'stock', 'c_sendfile']), function () use ($results) {
        $s = t_ratio($results, 'tcp', GIB, 'fastcopy', 'stock');
        $c = t_ratio($results, 'tcp', GIB, 'fastcopy', 'c_sendfile');
        return [$s >= 2.0 && $c >= 0.90, sprintf('%.2f× stock (need ≥ 2.00)', $s) . best($results, 'tcp', GIB, 'fastcopy', 'stock')
            . sprintf(', %.2f of C sendfile (need ≥ 0.90)', $c) . best($results, 'tcp', GIB, 'fastcopy', 'c_sendfile')];
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
                // What the kernel charges a sender of these records on this machine, PHP or not.
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
        . "peak RSS is the whole process's. vs stock = stock time / this time (above 1 is faster); vs C = C reference time / this time.\n";
    $groups = [];
    foreach ($results as $r) {
        $groups[$r['case'] . '@' . $r['size']][] = $r;
    }
    foreach ($groups as $rows) {
        $f = $rows[0];
        if (in_array($f['case'], ['http', 'http_apache', 'http_upload'], true)) {
            continue;
        }
        $size = $f['count'] ? "{$f['count']} × " . human_size($f['size']) : human_size($f['size']);
        $md .= "\n### {$f['case_label']}, $size\n\n";
        $md .= "| contender | median | min–max | GiB/s | CPU | syscalls | peak RSS | vs stock | vs C | engine |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|---|\n";
        foreach ($rows as $r) {
            if ($r['status'] !== 'ok') {
                $md .= "| {$r['label']} | {$r['status']} | | | | | | | | |\n";
                continue;
            }
            $md .= sprintf("| %s | %s | %s–%s | %.2f | %s | %s | %.1f MiB | %s | %s | %s |\n",
                $r['label'], fmt_time($r['wall_median']), fmt_time($r['wall_min']), fmt_time($r['wall_max']), $r['gib_s'],
                fmt_time($r['cpu_median']), fmt_syscalls($r['syscalls']), $r['maxrss_kb'] / 1024,
                fmt_ratio($r['vs_stock']), fmt_ratio($r['vs_ref']), fmt_engine($r['engine']));
        }
    }
    if ($http !== null) {
        $md .= "\n### HTTP: nginx → PHP-FPM (pm=static, 1 worker), " . human_size($http['size'] ?? 0) . " per request, curl as the client\n\n";
        if (!empty($http['error'])) {
            $md .= "not run: {$http['error']}\n";
        } else {
            $md .= "| contender | median | GiB/s | worker CPU s/GiB (min–max) | nginx CPU s/GiB | server CPU s/GiB | worker syscalls/GiB | nginx syscalls/GiB | compared with | worker CPU vs it | server CPU vs layer | engine (one request) |\n"
                . "|---|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|---|\n";
            foreach ($http['rows'] as $r) {
                if ($r['status'] !== 'ok') {
                    $md .= "| {$r['label']} | {$r['status']} | | | | | | | | | | |\n";
                    continue;
                }
                $nginx = $r['cpu_process'] === 'nginx worker';
                // The C rows' time is into a drain, not curl's through nginx: not comparable, not shown.
                $c = $r['cpu_process'] === 'C sender';
                $md .= sprintf("| %s | %s | %s | %.3f (%.3f–%.3f) | %s | %.3f | %s | %s | %s | %s | %s | %s |\n", $r['label'], $c ? '–' : fmt_time($r['wall_median']),
                    $c ? '–' : sprintf('%.2f', $r['gib_s']), $r['cpu_per_gib'], $r['cpu_min_per_gib'], $r['cpu_max_per_gib'], match (true) {
                        $nginx => '(same)',
                        $r['nginx_cpu_per_gib'] === null => '–',
                        default => sprintf('%.3f', $r['nginx_cpu_per_gib']),
                    },
                    $r['server_cpu_per_gib'], fmt_syscalls($r['syscalls'], true), $nginx ? '(same)' : fmt_syscalls($r['nginx_syscalls'], true),
                    $r['base'] ?? '', fmt_ratio($r['cpu_vs_stock']), fmt_ratio($r['server_vs_layer']), fmt_engine($r['engine']));
            }
            $md .= "\nTime is curl's time_total per request. CPU is what the one FPM worker and the one nginx worker used "
                . "around each request (/proc/PID/schedstat, after both went idle), per GiB: the median of the runs; "
                . "server CPU is nginx + worker (nginx alone for the static row). Syscalls come from a separate request with "
                . "`strace -c` attached to the worker and to nginx. Each row is compared with the same code on stock PHP "
                . "(worker CPU vs it: below 1 is cheaper), and the fastcgi rows' server CPU with the override on the output-layer path "
                . "(fastcopy.disable=fastcgi). The C rows send the same FastCGI records as the fastcgi path with the same syscalls "
                . "(bench/ref/fcref.c, mode fastcgi) into the bench's drain: their CPU is the sender's (user + system), the floor "
                . "for any worker on this kernel; on TCP loopback the sender is also charged the receiving side's protocol work.\n";
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
            $md .= "| contender | median | GiB/s | child CPU s/GiB (min–max) | static CPU s/GiB | CPU vs static | child syscalls/GiB | static syscalls/GiB | syscalls vs static | compared with | CPU vs it | CPU vs layer | engine (one request) |\n"
                . "|---|--:|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|---|\n";
            foreach ($ap['rows'] as $r) {
                if ($r['status'] !== 'ok') {
                    $md .= "| {$r['label']} | {$r['status']} | | | $stCpu | | | $stSys | | | | | |\n";
                    continue;
                }
                $md .= sprintf("| %s | %s | %.2f | %.3f (%.3f–%.3f) | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $r['label'], fmt_time($r['wall_median']),
                    $r['gib_s'], $r['cpu_per_gib'], $r['cpu_min_per_gib'], $r['cpu_max_per_gib'], $stCpu, fmt_ratio($r['cpu_vs_floor']),
                    fmt_syscalls($r['syscalls'], true), $stSys, fmt_ratio($r['syscalls_vs_floor']),
                    $r['base'] ?? '', fmt_ratio($r['cpu_vs_stock']), fmt_ratio($r['cpu_vs_layer']), fmt_engine($r['engine']));
            }
            $md .= "\nCPU is what the one Apache child (prefork, MaxRequestWorkers 1; PHP runs inside it) used around each "
                . "request (/proc/PID/schedstat, after it went idle), per GiB: the median of the runs, min–max beside it. "
                . "Syscalls come from a separate request with `strace -c` attached to the child. Three servers: stock (no "
                . "extension; it also serves the file itself from a location with EnableSendfile On: the floor), layer (the "
                . "override, fastcopy.disable=apache) and fc (the override; EnableSendfile unset, and Off under /nosendfile/). "
                . "On loopback the receiving side's protocol work is charged to the sender in some runs and not in others: "
                . "read every figure beside the static floor of the same run (static CPU and syscalls per GiB on every row, and the ratios to them).\n";
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
                . "| contender | median | GiB/s | worker CPU s/GiB (min–max) | nginx CPU s/GiB | worker syscalls/GiB | nginx syscalls/GiB | CPU vs stock | floor (cheapest with a spool) | CPU vs floor | CPU vs floor (no spool) | syscalls vs floor | sha256 | engine (one request) |\n"
                . "|---|--:|--:|--:|--:|--:|--:|--:|---|--:|--:|--:|--:|---|\n";
            foreach ($up['rows'] as $r) {
                if ($r['status'] !== 'ok') {
                    $md .= "| {$r['label']} | {$r['status']} | | | | | | | | | | | | |\n";
                    continue;
                }
                $md .= sprintf("| %s | %s | %.2f | %.3f (%.3f–%.3f) | %.3f | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $r['label'], fmt_time($r['wall_median']),
                    $r['gib_s'], $r['cpu_per_gib'], $r['cpu_min_per_gib'], $r['cpu_max_per_gib'], $r['nginx_cpu_per_gib'],
                    fmt_syscalls($r['syscalls'], true), fmt_syscalls($r['nginx_syscalls'], true), fmt_ratio($r['cpu_vs_stock']),
                    $r['floor'] ?? '–', fmt_ratio($r['cpu_vs_floor']), fmt_ratio($r['cpu_vs_nospool']), fmt_ratio($r['syscalls_vs_floor']),
                    $r['sha256_checked'] . ' × equal' . (!empty($r['spool_checked']) ? ', spool equal' : ''), fmt_engine($r['engine']));
            }
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

/** The cases drawn by http_chart(), never by chart(). */
const HTTP_CASES = ['http', 'http_apache', 'http_upload'];

/** The copy cases' contenders as the chart names them: what a reader knows them by. */
const CHART_NAMES = [
    'stock' => 'stream_copy_to_stream()', 'fpassthru' => 'fpassthru()', 'readfile' => 'readfile()', 'copy' => 'copy()',
    'fastcopy' => 'fastcopy_stream()', 'readfile_ov' => 'readfile(), override', 'copy_ov' => 'copy(), override',
    'c_sendfile' => 'C sendfile loop', 'c_cfr' => 'C copy_file_range loop', 'c_splice' => 'C splice loop',
    'c_read' => 'C read()', 'cp' => 'cp',
];

/** One line naming the run a chart shows: when, where, what. */
function chart_run_line(array $meta): string
{
    $parts = array_filter([
        $meta['date'] ?? null,
        isset($meta['cpu']) ? $meta['cpu'] . ' cores' . (isset($meta['memory_gib']) ? ", {$meta['memory_gib']} GiB" : '') : null,
        isset($meta['kernel']) ? 'Linux ' . $meta['kernel'] : null,
        isset($meta['php']) ? 'PHP ' . $meta['php'] : null,
        isset($meta['commit']) ? 'commit ' . $meta['commit'] : null,
    ]);
    return str_replace(['"', '\\'], '', implode(' · ', $parts));
}

/** One panel per copy case (its largest size), GiB/s per contender; HTTP cases are http_chart()'s. */
function chart(array $cfg, array $results, string $png): ?string
{
    $gp = trim((string) shell_exec('command -v gnuplot'));
    if ($gp === '') {
        return 'gnuplot not installed';
    }
    // grey: stock PHP; orange: fastcopy; blue: the C reference (the machine's limit)
    $colors = ['stock' => '#7f7f7f', 'fpassthru' => '#969696', 'readfile' => '#8c8c8c', 'copy' => '#b3b3b3',
        'fastcopy' => '#e6550d', 'readfile_ov' => '#fd8d3c', 'copy_ov' => '#fdae6b',
        'c_sendfile' => '#3182bd', 'c_cfr' => '#3182bd', 'c_splice' => '#3182bd', 'c_read' => '#3182bd', 'cp' => '#6baed6'];
    $big = [];
    foreach ($results as $r) {
        if (in_array($r['case'], HTTP_CASES, true)) {
            continue;
        }
        if (!isset($big[$r['case']]) || $r['size'] > $big[$r['case']]) {
            $big[$r['case']] = $r['size'];
        }
    }
    $dir = $cfg['work'] . '/chart';
    @mkdir($dir);
    $panels = [];
    foreach ($big as $case => $size) {
        $lines = '';
        $title = '';
        $top = 0.0;
        foreach ($results as $r) {
            if ($r['case'] !== $case || $r['size'] !== $size) {
                continue;
            }
            $top = max($top, $r['status'] === 'ok' ? (float) $r['gib_s'] : 0.0);
            $title = $r['case_label'] . ', ' . ($r['count'] ? "{$r['count']} × " : '') . human_size($size);
            $ok = $r['status'] === 'ok';
            $col = hexdec(substr($colors[$r['contender']] ?? '#000000', 1));
            // label, bar (? = none), colour, where the caption sits, caption
            $lines .= sprintf("\"%s\" %s %d %s \"%s\"\n", CHART_NAMES[$r['contender']] ?? $r['label'], $ok ? sprintf('%.4f', $r['gib_s']) : '?', $col,
                $ok ? sprintf('%.4f', $r['gib_s']) : '0', $ok ? sprintf('%.2f', $r['gib_s']) : (str_starts_with($r['status'], 'n/a') ? 'n/a' : 'failed'));
        }
        $file = "$dir/$case.dat";
        file_put_contents($file, $lines);
        $panels[] = [$file, $title, $top];
    }
    $n = count($panels);
    if ($n === 0) {
        return null;
    }
    $cols = 3;
    $rowsN = (int) ceil($n / $cols);
    $height = 520 * $rowsN + 90;
    // The run and the colours on two lines above the panels; the layout's margins keep
    // the panels' own titles clear of them.
    $head = sprintf('fastcopy benchmark (%s): throughput, GiB/s (higher is better), one copy at a time\n%s\n'
        . 'grey: stock PHP   orange: fastcopy (fastcopy_stream(), or a built-in with fastcopy.override=1)   '
        . 'blue: a C program making the raw syscall, or cp: the limit of the machine', $cfg['mode'], chart_run_line($cfg['meta'] ?? []));
    $s = "set terminal pngcairo noenhanced size 1800,$height font 'DejaVu Sans,10'\nset output '$png'\nset datafile missing '?'\n";
    $s .= sprintf("set multiplot layout %d,%d title \"%s\" font ',11' margins 0.05,0.98,%.3f,%.3f spacing 0.07,%.3f\n",
        $rowsN, $cols, $head, 150 / $height, 1 - 110 / $height, 190 / $height);
    $s .= "set style fill solid 0.9 noborder\nset boxwidth 0.7\nset grid ytics\nset xtics rotate by 25 right nomirror\nunset key\nset offsets 0.5,0.5,0,0\n";
    foreach ($panels as [$file, $title, $top]) {
        $t = str_replace(["'", '→'], ['', '->'], $title);
        // room above the tallest bar for its figure
        $s .= sprintf("set yrange [0:%.4f]\n", $top > 0 ? $top * 1.15 : 1);
        $s .= "set title '$t'\nplot '$file' using 0:2:3 with boxes lc rgb variable, '' using 0:4:5:xtic(1) with labels offset 0,0.7 font ',8'\n";
    }
    $s .= "unset multiplot\n";
    file_put_contents("$dir/chart.gp", $s);
    exec(escapeshellarg($gp) . ' ' . escapeshellarg("$dir/chart.gp") . ' 2>&1', $out, $rc);
    return $rc === 0 ? null : 'gnuplot failed: ' . implode(' ', array_slice($out, -3));
}

/**
 * Where an HTTP row belongs in http_chart(): [panel, workload, kind], or
 * [panel, null, 'static'|'floor'] for the reference lines; null for rows it
 * does not draw. Panels are the front end and the pool's socket.
 */
function http_chart_place(array $r): ?array
{
    if ($r['case'] === 'http_apache') {
        $id = preg_replace('/^ap_/', '', $r['contender']);
        $panel = 'Apache prefork + mod_php';
    } elseif ($r['case'] === 'http') {
        $id = preg_replace('/_tcp$/', '', $r['contender']);
        $panel = 'nginx + PHP-FPM, ' . match ($r['listen'] ?? null) {
            'tcp' => 'TCP pool (127.0.0.1)',
            'unix' => 'unix-socket pool',
            default => 'no pool',
        };
    } elseif ($r['case'] === 'http_upload') {
        $id = preg_replace('/_tcp$/', '', $r['contender']);
        $panel = 'uploads: nginx -> PHP-FPM, ' . (($r['listen'] ?? null) === 'tcp' ? 'TCP pool (127.0.0.1)' : 'unix-socket pool');
        // The cheapest exact floor of the run as the floor line (the other one with a spool is
        // left out), the one without a spool beside it.
        if ($id === 'upref_nospool') {
            return [$panel, null, 'floor2'];
        }
        if (str_starts_with($id, 'upref_')) {
            // (runs before floor_id was recorded had only the one floor with a spool)
            return preg_replace('/_tcp$/', '', $r['floor_id'] ?? 'upref_spool') === $id ? [$panel, null, 'floor'] : null;
        }
        // _clone: fastcopy.spool_clone=1 beside the default; _noclone: =0 beside a default of 1
        // (runs before the default changed), which http_chart() names as the same two kinds.
        $kind = 'stock';
        foreach (['_ov' => 'fastcopy', '_noclone' => 'noclone', '_clone' => 'clone'] as $suffix => $k) {
            if (str_ends_with($id, $suffix)) {
                [$id, $kind] = [substr($id, 0, -strlen($suffix)), $k];
                break;
            }
        }
        $id = preg_replace('/^up_/', '', $id);
        $names = ['copy' => 'stream_copy_to_stream()', 'fpc' => 'file_put_contents()', 'nextcloud' => 'Nextcloud PUT'];
        return [$panel, $names[$id] ?? $id, $kind];
    } else {
        return null;
    }
    if ($id === 'static' || $id === 'nginx') {
        return [$panel, null, 'static'];
    }
    if ($id === 'cref') {
        return [$panel, null, 'floor'];
    }
    if ($id === 'stock' || $id === 'fastcopy') {
        return [$panel, 'stream_copy_to_stream()', $id === 'stock' ? 'stock' : 'fastcopy'];
    }
    $kinds = ['_layer' => 'layer', '_through' => 'wrapper', '_ov' => 'fastcopy', '_off' => 'sf off'];
    $kind = 'stock';
    foreach ($kinds as $suffix => $k) {
        if (str_ends_with($id, $suffix)) {
            [$id, $kind] = [substr($id, 0, -strlen($suffix)), $k];
            break;
        }
    }
    // Runs from before the engine saw through wrappers measured the override reading
    // through the wrapper under the plain override's name (no "path" in the label).
    if ($id === 'nextcloud' && $kind === 'fastcopy' && !str_contains($r['label'], 'path')) {
        $kind = 'wrapper';
    }
    $names = ['readfile' => 'readfile()', 'dav' => 'sabre/dav GET', 'nextcloud' => 'Nextcloud shape'];
    return [$panel, $names[$id] ?? $id, $kind];
}

/**
 * The HTTP results, one column per front end and pool socket: throughput above
 * (the front end serving the file itself as a dashed line), CPU per GiB below
 * (the worker solid, the front end's own CPU pale on top of it, the C floor of
 * the same syscalls without PHP as a dashed line). Bars are grouped by workload:
 * stock, the override through a wrapper's reads, on the output layer, on its path
 * (and Apache's with EnableSendfile Off).
 */
function http_chart(array $cfg, array $results, string $png): ?string
{
    $gp = trim((string) shell_exec('command -v gnuplot'));
    if ($gp === '') {
        return 'gnuplot not installed';
    }
    // stock; the override through a userspace wrapper's reads (fastcopy.disable=wrappers);
    // the override on the output layer; on the path; on Apache's path with EnableSendfile Off
    // and, for uploads, the override with fastcopy.spool_clone=1
    $colors = ['stock' => '#7f7f7f', 'wrapper' => '#9e9ac8', 'layer' => '#fdae6b', 'fastcopy' => '#e6550d',
        'sf off' => '#a63603', 'clone' => '#6a51a3'];
    $tic = ['clone' => '+clone'];
    // Every abbreviation the chart uses, said in full under its title.
    $say = [
        'stock' => 'stock: PHP without fastcopy',
        'wrapper' => 'wrapper: the override reading through the userspace wrapper (fastcopy.disable=wrappers; the only way before the engine saw through it)',
        'layer' => "layer: the override on PHP's output layer (its fastcgi or apache path off)",
        'fastcopy' => 'fastcopy: fastcopy.override=1, every path on',
        'sf off' => 'sf off: the apache path with EnableSendfile Off',
        'clone' => '+clone: the override with fastcopy.spool_clone=1 (the body spliced into the file, the spool cloned from it)',
        'sabre/dav GET' => 'sabre/dav GET: a sabre/dav 4.7 server (sabre/http copies 4 MiB pieces)',
        'Nextcloud shape' => "Nextcloud shape: that GET with the file behind icewind/streams' CallbackWrapper",
        'Nextcloud PUT' => 'Nextcloud PUT: the body behind a CallbackWrapper, file_put_contents() into a .part file, renamed',
    ];
    $floorSay = ['upref_spool' => 'one buffer to file and spool', 'upref_reflink' => 'spliced, spool cloned'];
    $panels = [];
    foreach ($results as $r) {
        $at = http_chart_place($r);
        if ($at === null || $r['status'] !== 'ok') {
            continue;
        }
        [$panel, $workload, $kind] = $at;
        $panels[$panel]['size'] = $r['size'];
        if ($workload === null) {
            $panels[$panel][$kind] = $kind === 'static' ? $r['gib_s'] : $r['cpu_per_gib'];
            if ($kind === 'floor' && $r['case'] === 'http_upload') {
                $panels[$panel]['floor_name'] = $floorSay[$r['contender']] ?? $floorSay[preg_replace('/_tcp$/', '', $r['contender'])] ?? $r['short'];
            }
            // Apache's child serving the file itself: the CPU floor of the Apache panel too.
            if ($kind === 'static' && $r['case'] === 'http_apache') {
                $panels[$panel]['static_cpu'] = $r['cpu_per_gib'];
            }
        } else {
            $panels[$panel]['bars'][$workload][$kind] = $r;
        }
    }
    // nginx serves its static file without a pool: its line goes into every nginx panel.
    foreach ($panels as $name => $p) {
        if (!isset($p['bars']) && isset($p['static'])) {
            foreach ($panels as $other => $q) {
                if (isset($q['bars']) && !isset($q['static']) && strtok($other, ' ') === strtok($name, ' ')) {
                    $panels[$other]['static'] = $p['static'];
                }
            }
        }
    }
    $panels = array_filter($panels, fn (array $p): bool => !empty($p['bars']));
    if ($panels === []) {
        return null;
    }
    // A run whose default was fastcopy.spool_clone=1 had =0 as a contender of its own
    // (_noclone, run or not): its override rows are the splice route. Name both as
    // today's runs do (fastcopy = spool_clone 0, +clone = spool_clone 1).
    if (array_filter($results, fn (array $r): bool => str_ends_with($r['contender'], '_noclone')
        || str_ends_with($r['contender'], '_noclone_tcp')) !== []) {
        foreach ($panels as $name => $p) {
            if (!str_starts_with($name, 'uploads')) {
                continue;
            }
            foreach ($p['bars'] as $workload => $kinds) {
                $panels[$name]['bars'][$workload] = array_filter(['stock' => $kinds['stock'] ?? null,
                    'fastcopy' => $kinds['noclone'] ?? null, 'clone' => $kinds['fastcopy'] ?? null]);
            }
        }
    }
    $used = [];
    foreach ($panels as $p) {
        foreach ($p['bars'] as $workload => $kinds) {
            $used += array_fill_keys(array_keys($kinds), true) + [$workload => true];
        }
    }
    $notes = array_values(array_intersect_key($say, $used));
    if (array_filter(array_keys($panels), fn (string $n): bool => str_starts_with($n, 'uploads')) !== []) {
        $notes[] = 'C floor: a FastCGI responder in C behind the same nginx storing the body, the cheaper of the run’s two that keep a spool as PHP does (dashed), and one without (dotted)';
    }
    if (isset($panels['Apache prefork + mod_php'])) {
        $notes[] = "Apache: the path sends the file with Apache's own sendfile, as Apache serves a static file (dashed line), so at its pace on loopback; what it saves is the child's CPU (below)";
    }
    $noteLines = [];
    $line = '';
    foreach ($notes as $note) {
        if ($line !== '' && strlen($line . $note) > 60 * count($panels) + 20) {
            $noteLines[] = $line;
            $line = '';
        }
        $line .= ($line === '' ? '' : '   ·   ') . $note;
    }
    $noteLines[] = $line;
    $head = "fastcopy benchmark ({$cfg['mode']}), HTTP: one request at a time, curl as the client\\n" . chart_run_line($cfg['meta'] ?? [])
        . '\\n' . implode('\\n', array_map(fn (string $l): string => str_replace(['"', "'"], ['', '’'], $l), $noteLines));
    uksort($panels, fn (string $a, string $b): int => [str_starts_with($a, 'uploads'), str_starts_with($a, 'Apache'), str_contains($a, 'TCP')]
        <=> [str_starts_with($b, 'uploads'), str_starts_with($b, 'Apache'), str_contains($b, 'TCP')]);
    $dir = $cfg['work'] . '/chart';
    @mkdir($dir);
    $cols = count($panels);
    $s = "set terminal pngcairo noenhanced size " . (880 * $cols) . ',' . (1040 + 18 * (count($noteLines) + 1)) . " font 'DejaVu Sans,10'\nset output '$png'\n"
        . "set multiplot layout 2,$cols title \"$head\"\n"
        . "set style fill solid 0.9 noborder\nset boxwidth 0.8\nset grid ytics\nset xtics nomirror scale 0 font ',8'\n"
        . "set bmargin 6\nset lmargin 9\nset tmargin 5\nset key top left font ',9'\n"
        // the figures over the bars stay readable where a floor line crosses them
        . "set style textbox opaque noborder margins 1,1\n";
    $rows = ['gib' => '', 'cpu' => ''];
    $i = 0;
    foreach ($panels as $name => $p) {
        $i++;
        $dat = "$dir/http-$i.dat";
        $lines = '';
        $tics = $labels = [];
        $top = ['gib' => $p['static'] ?? 0, 'cpu' => max($p['floor'] ?? 0, $p['floor2'] ?? 0, $p['static_cpu'] ?? 0)];
        $x = 0;
        $fe = str_starts_with($name, 'Apache') ? 'Apache' : (str_starts_with($name, 'uploads') ? 'upload' : 'nginx');
        foreach ($p['bars'] as $workload => $kinds) {
            $first = $x;
            foreach (array_keys($colors) as $kind) {
                if (!isset($kinds[$kind])) {
                    continue;
                }
                $r = $kinds[$kind];
                // worker (or Apache child) CPU, and the server's: worker + nginx
                $worker = $r['cpu_per_gib'];
                $server = $r['server_cpu_per_gib'] ?? $worker;
                $lines .= sprintf("%d %.4f %.4f %.4f %d\n", $x, $r['gib_s'], $worker, $server, hexdec(substr($colors[$kind], 1)));
                $top = ['gib' => max($top['gib'], $r['gib_s']), 'cpu' => max($top['cpu'], $server)];
                $tics[] = sprintf('"%s" %d', $tic[$kind] ?? $kind, $x);
                $x++;
            }
            $labels[] = sprintf("set label %d '%s' at first %.1f, graph -0.13 center font ',10'\n", count($labels) + 1,
                str_replace("'", '', $workload), ($first + $x - 1) / 2);
            $x++;
        }
        file_put_contents($dat, $lines);
        $head = "unset label\n" . implode('', $labels) . 'set xtics (' . implode(', ', $tics) . ")\nset xrange [-0.7:" . ($x - 1.3) . "]\n";
        $title = "$name, " . human_size($p['size']);
        $static = isset($p['static']) ? sprintf(", %.4f with lines dt 2 lw 2 lc rgb '#31a354' title '%s serving the file itself (%.2f)'",
            $p['static'], $fe, $p['static']) : '';
        $rows['gib'] .= $head . "set title \"$title\\nthroughput, GiB/s (higher is better)\"\nset yrange [0:" . round($top['gib'] * 1.3, 2) . "]\n"
            . "plot '$dat' using 1:2:5 with boxes lc rgb variable notitle$static, '$dat' using 1:2:(sprintf('%.2f', \$2)) with labels boxed offset 0,0.7 font ',8' notitle\n";
        $floorTitle = $fe === 'upload' ? 'C floor with a spool: ' . ($p['floor_name'] ?? 'fcup') . ' (%.2f)' : 'C floor: the same syscalls, no PHP (%.2f)';
        $floorTitle = str_replace("'", '', $floorTitle);
        $floor = isset($p['floor']) ? sprintf(", %.4f with lines dt 2 lw 2 lc rgb '#3182bd' title '$floorTitle'",
            $p['floor'], $p['floor']) : '';
        $floor .= isset($p['floor2']) ? sprintf(", %.4f with lines dt 3 lw 2 lc rgb '#6baed6' title 'C floor, no spool (%.2f)'",
            $p['floor2'], $p['floor2']) : '';
        $floor .= isset($p['static_cpu']) ? sprintf(", %.4f with lines dt 2 lw 2 lc rgb '#31a354' title 'Apache serving the file itself (%.2f)'",
            $p['static_cpu'], $p['static_cpu']) : '';
        $cpuTitle = match ($fe) {
            'nginx' => 'CPU s per GiB (lower is better): the PHP-FPM worker solid, nginx pale above it',
            'upload' => 'CPU s per GiB (lower is better): the PHP-FPM worker solid, nginx pale above it',
            default => 'CPU s per GiB (lower is better) of the Apache child, PHP inside it',
        };
        $rows['cpu'] .= $head . "set title \"$title\\n$cpuTitle\"\nset yrange [0:" . round($top['cpu'] * 1.3, 2) . "]\n"
            . "plot '$dat' using 1:4:5 with boxes lc rgb variable fs transparent solid 0.3 notitle, "
            . "'' using 1:3:5 with boxes lc rgb variable notitle$floor, "
            // the figures last, over the floor lines
            . "'$dat' using 1:3:(sprintf('%.2f', \$3)) with labels boxed offset 0,0.7 font ',8' notitle, "
            . "'' using 1:(\$4 > \$3 ? \$4 : NaN):(sprintf('%.2f', \$4)) with labels boxed offset 0,0.7 font ',8' tc rgb '#555555' notitle\n";
    }
    $s .= $rows['gib'] . $rows['cpu'] . "unset multiplot\n";
    file_put_contents("$dir/http.gp", $s);
    exec(escapeshellarg($gp) . ' ' . escapeshellarg("$dir/http.gp") . ' 2>&1', $out, $rc);
    return $rc === 0 ? null : 'gnuplot failed: ' . implode(' ', array_slice($out, -3));
}

/** Draws $base.png (the copy cases) and $base-http.png; markdown that shows them or says why not. */
function charts(array $cfg, array $results, string $base): string
{
    $md = '';
    foreach (['' => ['chart', 'throughput chart'], '-http' => ['http_chart', 'HTTP chart']] as $sfx => [$draw, $alt]) {
        @unlink("$base$sfx.png");
        $err = $draw($cfg, $results, "$base$sfx.png");
        if ($err !== null) {
            $md .= "\nChart ($alt): $err\n";
        } elseif (is_file("$base$sfx.png")) {
            $md .= "\n![$alt](" . basename($base) . "$sfx.png)\n";
        }
    }
    return $md;
}

function write_outputs(array $cfg, array $meta, array $results, array $targets, ?array $http): void
{
    @mkdir($cfg['out'], 0777, true);
    $base = $cfg['out'] . '/' . $cfg['prefix'];
    $md = markdown($meta, $results, $targets, $http);
    $md .= charts($cfg + ['meta' => $meta], $results, $base);
    file_put_contents("$base.md", $md);
    $json = ['meta' => $meta, 'targets' => $targets, 'results' => $results, 'http' => $http ? array_diff_key($http, ['rows' => 1, 'apache' => 1, 'upload' => 1])
        + (isset($http['apache']) ? ['apache' => array_diff_key($http['apache'], ['rows' => 1])] : [])
        + (isset($http['upload']) ? ['upload' => array_diff_key($http['upload'], ['rows' => 1])] : []) : null];
    $encoded = json_encode($json, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_PRESERVE_ZERO_FRACTION);
    if ($encoded === false) {
        throw new RuntimeException('results do not encode as JSON: ' . json_last_error_msg());
    }
    file_put_contents("$base.json", $encoded . "\n");
    echo "\n", $md, "\nWrote $base.md, $base.json and the charts\n";
}
