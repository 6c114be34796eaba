<?php
// The upload case: PUT bodies through nginx into PHP-FPM (one worker per pool),
// configured as Nextcloud's admin manual does (fastcgi_request_buffering off,
// client_body_buffer_size 512k), stored by three shapes:
//   copy       stream_copy_to_stream(php://input, $file)
//   fpc        file_put_contents($path, fopen('php://input', 'r')) (sabre/dav's FS node)
//   nextcloud  icewind's CallbackWrapper (pre-close callback only) around php://input,
//              file_put_contents() into a part file, renamed (Nextcloud's File::put())
// stock PHP against fastcopy.override=1 (the fastcgi_input path), unix and TCP
// pools, beside the C floor behind the same nginx (ref/fcup.c: the records parsed
// and the body stored without a spool, with a spool written from the same
// buffer, and spliced into the file with the spool copy_file_range()d from it).
// Each stored file is checked against the body's sha256, and once per floor
// with a spool, the spool too.
// Uses nginx_conf() from http.php and the timed PUTs of put.php.
declare(strict_types=1);

/**
 * The contenders: [pool, script, label, short, base]. The floors' ?spool=1 makes fcup keep a spool
 * written from its read buffer, ?spool=reflink one copy_file_range()d from the stored file.
 */
function upload_contenders(bool $clones): array
{
    $c = [];
    $shapes = ['copy' => 'stream_copy_to_stream(php://input, $file)', 'fpc' => "file_put_contents(\$path, fopen('php://input'))",
        'nextcloud' => 'Nextcloud PUT: CallbackWrapper (pre-close) + file_put_contents to .part + rename'];
    foreach (['unix' => ['', 'unix socket'], 'tcp' => ['_tcp', 'TCP']] as $listen => [$sfx, $where]) {
        foreach ($shapes as $id => $what) {
            $c["up_$id$sfx"] = ['pool' => "stock$sfx", 'url' => "/stock$sfx/up_$id.php", 'label' => "$what, stock ($where)",
                'short' => "$id stock $listen", 'listen' => $listen, 'base' => null];
            $c["up_{$id}_ov$sfx"] = ['pool' => "fc$sfx", 'url' => "/fc$sfx/up_$id.php", 'label' => "$what, override ($where)",
                'short' => "$id fastcopy $listen", 'listen' => $listen, 'base' => "up_$id$sfx", 'ext' => true];
            // where the filesystem clones, the override with fastcopy.spool_clone=1 beside
            // it: the body spliced into the file and the spool cloned from it
            if (!$clones) {
                continue;
            }
            $c["up_{$id}_clone$sfx"] = ['pool' => "fcclone$sfx", 'url' => "/fcclone$sfx/up_$id.php",
                'label' => "$what, override + fastcopy.spool_clone=1 ($where)",
                'short' => "$id fastcopy clone $listen", 'listen' => $listen, 'base' => "up_$id$sfx", 'ext' => true];
        }
        $c["upref_nospool$sfx"] = ['pool' => "cref$sfx", 'url' => "/cref$sfx/nospool.php", 'label' => "C floor: records parsed, body stored, no spool ($where)",
            'short' => "C no spool $listen", 'listen' => $listen, 'base' => null, 'floor' => true];
        $c["upref_spool$sfx"] = ['pool' => "cref$sfx", 'url' => "/cref$sfx/spool.php?spool=1", 'label' => "C floor: records parsed, body stored and spooled from the same buffer ($where)",
            'short' => "C spool $listen", 'listen' => $listen, 'base' => null, 'floor' => true, 'spool' => true];
        $c["upref_reflink$sfx"] = ['pool' => "cref$sfx", 'url' => "/cref$sfx/reflink.php?spool=reflink",
            'label' => "C floor: payload spliced into the file, spool by copy_file_range from it ($where)",
            'short' => "C reflink $listen", 'listen' => $listen, 'base' => null, 'floor' => true, 'spool' => true];
    }
    return $c;
}

function http_upload_case(array &$cfg): array
{
    $out = put_case($cfg, ['bench/ref/fcup.c was not built' => !is_executable($cfg['bin'] . '/fcup')]);
    if (isset($out['error'])) {
        return $out;
    }
    $size = $out['size'];
    $d = $cfg['work'] . '/upload';
    @mkdir("$d/tmp", 0700, true);
    $updir = $cfg['upload_dir'] ?? "$d/store";
    @mkdir($updir, 0700, true);
    $out['upload_dir'] = $updir;
    $out['upload_fs'] = put_fs($updir);
    [$body, $sha] = put_body($cfg, $size);
    $scripts = dirname(__DIR__) . '/cases/http';
    $libs = fclib_autoload('dav') !== null;
    // fastcopy.spool_clone=1's rows only where it changes anything: XFS or btrfs
    $clones = in_array($out['upload_fs'], ['xfs', 'btrfs'], true);
    $pools = [];
    foreach (['unix' => '', 'tcp' => '_tcp'] as $listen => $sfx) {
        foreach (['stock' => null, 'fc' => ['fastcopy.override=1'], 'fcclone' => ['fastcopy.override=1', 'fastcopy.spool_clone=1'],
                     'cref' => 'floor'] as $kind => $ini) {
            if (is_array($ini) && ($cfg['ext'] === '' || !$cfg['override'] || ($kind === 'fcclone' && !$clones))) {
                continue;
            }
            $addr = $listen === 'unix' ? "$d/$kind$sfx.sock" : '127.0.0.1:' . free_port();
            $pools["$kind$sfx"] = ['listen' => $listen, 'floor' => $ini === 'floor', 'ini' => is_array($ini) ? ['extension=' . $cfg['ext'], ...$ini] : [],
                'addr' => $addr]
                + ($ini === 'floor' ? ['cmd' => [$cfg['bin'] . '/fcup', ($listen === 'unix' ? 'listen=unix:' : 'listen=tcp:') . $addr, "spool=$updir"]] : []);
        }
    }
    $port = free_port();
    // As Nextcloud's admin manual configures nginx for uploads.
    file_put_contents("$d/nginx.conf", nginx_conf($d, $port, ['client_max_body_size 0', 'client_body_buffer_size 512k'],
        $pools, $scripts, '$', [
            'REQUEST_URI' => '$request_uri', 'REQUEST_METHOD' => '$request_method', 'QUERY_STRING' => '$query_string',
            'CONTENT_TYPE' => '$content_type', 'CONTENT_LENGTH' => '$content_length',
            'SERVER_PROTOCOL' => '$server_protocol', 'FCBENCH_UPLOAD_FILE' => "$updir/stored-{pool}-\$1.bin",
            'FCBENCH_STATS' => "$d/stats-{pool}-\$1.json", 'FCUP_FILE' => "$updir/stored-{pool}-\$1.bin",
            'FCUP_SPOOL' => '$arg_spool', 'FCUP_KEEP' => '$arg_keep',
        ], ['fastcgi_request_buffering off', 'fastcgi_read_timeout 600s']));
    $contenders = upload_contenders($clones);
    say(sprintf('%-10s %-12s ', 'upload', human_size($size)));
    $tc = microtime(true);
    return run_http_case('upload', $out, function (array &$out, array &$servers)
            use (&$cfg, $body, $contenders, $d, $libs, $pools, $port, $sha, $size, $tc, $updir): void {
        // output_buffering as in php.ini-production; the spool and the part file on the upload directory.
        $fpmIni = ['-d', 'memory_limit=128M', '-d', 'output_buffering=4096', '-d', "upload_tmp_dir=$updir", '-d', "sys_temp_dir=$updir"];
        foreach (fclib_ini() as $line) {
            array_push($fpmIni, '-d', $line);
        }
        [$workers, $nginx] = put_servers($cfg, $d, $pools, $fpmIni, $servers);
        $base = "http://127.0.0.1:$port";
        $url = static fn (array $c): string => $base . $c['url'];
        $stored = static fn (array $c): string => "$updir/stored-{$c['pool']}-" . preg_replace('#^.*/(\w+)\.php.*$#', '$1', $c['url']) . '.bin';

        $rows = [];
        $live = [];
        // FCBENCH_UPLOAD_ONLY (a regex on the contenders' ids): some rows alone, to study them
        $only = (string) getenv('FCBENCH_UPLOAD_ONLY');
        foreach ($contenders as $id => $c) {
            $na = match (true) {
                !isset($pools[$c['pool']]) => 'n/a (override not built)',
                str_contains($id, 'nextcloud') && !$libs => 'n/a (icewind/streams not installed: tests/integration/setup.sh)',
                default => null,
            };
            if ($na === null && $only !== '' && !preg_match("~$only~", $id)) {
                $na = 'n/a (not asked: FCBENCH_UPLOAD_ONLY)';
            }
            $rows[$id] = ['runs' => [], 'na' => $na, 'checked' => 0];
            if ($na === null) {
                $live[] = $id;
            }
        }
        // One PUT: [run] or an error. The stored file is removed before and after. $keep (a floor
        // with a spool): fcup keeps the spool as the file's .spool, which must equal the body too.
        $put = static function (array $c, bool $strace, string $id, bool $keep = false) use (&$cfg, $workers, $nginx, $url, $stored, $body, $size, $sha, $d): array|string {
            $dest = $stored($c);
            @unlink($dest);
            @unlink("$dest.spool");
            $t = timed_put($cfg, ['worker' => $workers[$c['pool']], 'nginx' => $nginx], $url($c) . ($keep ? '&keep=1' : ''), $body,
                $strace ? ['worker' => "$d/strace-$id-worker.txt", 'nginx' => "$d/strace-$id-nginx.txt"] : []);
            $run = ['wall' => $t['wall'], 'bytes' => $t['bytes'], 'cpu' => $t['cpu']['worker'], 'nginx_cpu' => $t['cpu']['nginx'],
                'server_cpu' => array_sum($t['cpu']), 'vm_stalls' => $t['vm_stalls']];
            if ($strace) {
                $run['syscalls'] = $t['syscalls']['worker'];
                $run['nginx_syscalls'] = $t['syscalls']['nginx'];
            }
            clearstatcache();
            $got = is_file($dest) ? filesize($dest) : -1;
            $ok = $t['code'] === '201' && $t['bytes'] === $size && stored_whole($dest, $size, $sha);
            $spoolOk = !$keep || stored_whole("$dest.spool", $size, $sha);
            @unlink($dest);
            @unlink("$dest.spool");
            if ($ok && !$spoolOk) {
                return "the spool kept by ?keep=1 is not equal to the body (sha256)";
            }
            if (!$ok) {
                $log = $c['pool'] === null || str_starts_with($c['pool'], 'cref') ? "$d/{$c['pool']}.out" : "$d/fpm-up-{$c['pool']}.log";
                return "HTTP {$t['code']}, sent {$t['bytes']} of $size bytes, stored $got bytes" . ($got === $size ? ' not equal to the body (sha256)' : '')
                    . ': ' . tail($log, 200) . ' ' . tail("$d/nginx-error.log", 200);
            }
            return $run;
        };
        put_rounds($cfg, $live, fn (string $id) => $put($contenders[$id], false, $id), $rows);
        // Untimed: one PUT per floor with a spool, keeping the spool to compare it with the body.
        foreach ($live as $id) {
            if (!empty($contenders[$id]['spool']) && !isset($rows[$id]['error'])) {
                $run = $put($contenders[$id], false, $id, true);
                if (is_string($run)) {
                    $rows[$id]['error'] = $run;
                    say("  $id: $run");
                    continue;
                }
                $rows[$id]['checked']++;
                $rows[$id]['spool_checked'] = true;
            }
        }
        // Separate, untimed pass: one PUT per contender with strace -c on the worker and on nginx.
        if ($cfg['has_strace']) {
            foreach ($live as $id) {
                if (isset($rows[$id]['error'])) {
                    continue;
                }
                $run = $put($contenders[$id], true, $id);
                if (is_array($run)) {
                    $rows[$id]['checked']++;
                    $rows[$id]['syscalls'] = $run['syscalls'];
                    $rows[$id]['nginx_syscalls'] = $run['nginx_syscalls'];
                }
            }
            echo 's';
        }
        say(sprintf(' %.1f s', microtime(true) - $tc));

        $perGib = static fn (?float $s) => $s === null ? null : $s / ($size / GIB);
        $sys = static fn (?array $s) => $s === null ? null : ['per_gib' => (int) round($s['total'] * GIB / $size)] + $s;
        foreach ($contenders as $id => $c) {
            $r = $rows[$id];
            $walls = array_column($r['runs'], 'wall');
            $cpu = array_column($r['runs'], 'cpu');
            $script = preg_replace('#^.*/(\w+)\.php.*$#', '$1', $c['url']);
            $stats = @file_get_contents("$d/stats-{$c['pool']}-$script.json");
            $out['rows'][] = [
                ...http_row('http_upload', 'HTTP upload: curl PUT → nginx (request buffering off) → PHP-FPM', $size, $id,
                    $c['label'], $c['short']),
                'listen' => $c['listen'],
                ...row_timing($r, $walls, $size),
                ...row_cpu($cpu, $perGib),
                'cpu_runs_per_gib' => array_map($perGib, $cpu),
                // direct compactions and reclaims on the machine during each timed PUT
                'vm_stalls_runs' => array_column($r['runs'], 'vm_stalls'),
                'nginx_cpu_per_gib' => $perGib(median(array_column($r['runs'], 'nginx_cpu'))),
                'server_cpu_per_gib' => $perGib(median(array_column($r['runs'], 'server_cpu'))),
                'cpu_process' => !empty($c['floor']) ? 'C responder' : 'FPM worker',
                'maxrss_kb' => null,
                'syscalls' => $sys($r['syscalls'] ?? null),
                'nginx_syscalls' => $sys($r['nginx_syscalls'] ?? null),
                // Every PUT of the row (timed, warm-up and strace) stored the body: sha256 equal.
                'sha256_checked' => $r['checked'],
                // A floor's spool, kept once (?keep=1), equal to the body too.
                'spool_checked' => $r['spool_checked'] ?? null,
                'engine' => $stats ? json_decode($stats, true) : null,
                'walls' => $walls,
            ];
        }
        $byId = array_column($out['rows'], null, 'contender');
        $ratio = static function (array $a, ?array $b, string $field): ?float {
            return $b === null || $b['status'] !== 'ok' || $a['status'] !== 'ok' || !($b[$field] > 0) ? null : $a[$field] / $b[$field];
        };
        // The cheapest exact floor keeps the spool as PHP does: per listen type, of the floor
        // that writes it from its buffer and the one that copy_file_range()s it from the stored
        // file (a reflink on XFS/btrfs), the one with the lower median CPU per GiB in this run.
        $out['floor'] = [];
        foreach (['unix' => '', 'tcp' => '_tcp'] as $listen => $sfx) {
            $ok = array_filter([$byId["upref_spool$sfx"], $byId["upref_reflink$sfx"]], fn (array $f): bool => $f['status'] === 'ok' && $f['cpu_per_gib'] !== null);
            usort($ok, fn (array $a, array $b): int => $a['cpu_per_gib'] <=> $b['cpu_per_gib']);
            $out['floor'][$listen] = ($ok[0] ?? $byId["upref_spool$sfx"])['contender'];
        }
        foreach ($out['rows'] as &$r) {
            $c = $contenders[$r['contender']];
            $sfx = $c['listen'] === 'tcp' ? '_tcp' : '';
            $b = $c['base'] ? $byId[$c['base']] : null;
            // The cheapest exact floor of the same run; the one without a spool is shown too.
            $f = $byId[$out['floor'][$c['listen']]];
            $n = $byId["upref_nospool$sfx"];
            $r['base'] = $b['short'] ?? null;
            $r['vs_stock'] = $b ? $ratio($b, $r, 'wall_median') : null;
            $r['cpu_vs_stock'] = $ratio($r, $b, 'cpu_per_gib');
            $r['floor'] = $f['short'];
            $r['floor_id'] = $f['contender'];
            $r['cpu_vs_floor'] = $ratio($r, $f, 'cpu_per_gib');
            $r['cpu_vs_nospool'] = $ratio($r, $n, 'cpu_per_gib');
            $r['server_vs_floor'] = $ratio($r, $f, 'server_cpu_per_gib');
            $r['syscalls_vs_floor'] = ($r['syscalls'] && $f['syscalls']) ? $r['syscalls']['per_gib'] / max(1, $f['syscalls']['per_gib']) : null;
            $r['vs_ref'] = null;
        }
        unset($r);
    });
}
