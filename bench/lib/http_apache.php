<?php
// The HTTP case under Apache 2.4 prefork + mod_php (Debian's apache2 and
// libapache2-mod-php8.2), the setup `apt install php` gives: three Apache
// servers with one child each, from configs written in the scratch directory,
// on 127.0.0.1, curl as the client. The figure that matters is the Apache
// child's CPU per GiB: PHP runs inside it, and so does Apache's sending.
//   stock   no extension: readfile() and sabre/dav's GET, and Apache serving the
//           file itself with EnableSendfile On (the floor)
//   layer   the override on the output layer (fastcopy.disable=apache)
//   fc      the override with the apache path, EnableSendfile unset (Apache's
//           default) and, under /nosendfile/, EnableSendfile Off
declare(strict_types=1);

const APACHE_MODULES = '/usr/lib/apache2/modules';

function apache_conf(string $d, string $inst, int $port, string $file, string $scripts): string
{
    $user = trim((string) shell_exec('id -u')) === '0' ? "User www-data\nGroup www-data\n" : '';
    $stats = '';
    foreach (['/' => '', '/nosendfile/' => 'off-'] as $prefix => $tag) {
        foreach (['readfile', 'dav'] as $script) {
            $stats .= "<Location {$prefix}$script.php>\n    SetEnv FCBENCH_STATS $d/stats-ap-$inst-$tag$script.json\n</Location>\n";
        }
    }
    $mods = APACHE_MODULES;
    return <<<CONF
    # Written by bench/lib/http_apache.php for one run; loopback only.
    ServerRoot $d/ap-$inst
    ServerName 127.0.0.1
    Listen 127.0.0.1:$port
    PidFile $d/ap-$inst/httpd.pid
    ErrorLog $d/ap-$inst/error.log
    Mutex file:$d/ap-$inst default
    DefaultRuntimeDir $d/ap-$inst
    LoadModule mpm_prefork_module $mods/mod_mpm_prefork.so
    LoadModule authz_core_module $mods/mod_authz_core.so
    LoadModule alias_module $mods/mod_alias.so
    LoadModule env_module $mods/mod_env.so
    LoadModule php_module $mods/libphp8.2.so
    $user
    StartServers 1
    MinSpareServers 1
    MaxSpareServers 1
    ServerLimit 1
    MaxRequestWorkers 1
    MaxConnectionsPerChild 0
    KeepAlive On
    Timeout 600
    PHPIniDir $d/ap-$inst
    DocumentRoot $scripts
    AcceptPathInfo On
    <FilesMatch "\\.php$">
        SetHandler application/x-httpd-php
    </FilesMatch>
    SetEnv FCBENCH_FILE $file
    SetEnv FCBENCH_WORK $d/ap-$inst
    Alias /static/file.bin $file
    <Location /static/>
        EnableSendfile On
    </Location>
    Alias /nosendfile/ $scripts/
    <Location /nosendfile/>
        EnableSendfile Off
    </Location>
    $stats
    CONF;
}

/** Who is measured: [instance, URL, label, short, base, layer] per contender. */
function apache_contenders(string $name): array
{
    $c = ['ap_static' => ['stock', '/static/file.bin', 'Apache static (EnableSendfile On)', 'Apache static', null, null]];
    foreach (['readfile' => ['readfile()', 'readfile.php'], 'dav' => ['sabre/dav 4.7 GET (sabre/http 5.1.12)', "dav.php/$name"]] as $id => [$what, $url]) {
        $c["ap_$id"] = ['stock', "/$url", "$what, stock", "$id stock", null, null];
        $c["ap_{$id}_layer"] = ['layer', "/$url", "$what, override, output layer: fastcopy.disable=apache", "$id layer", "ap_$id", null];
        $c["ap_{$id}_ov"] = ['fc', "/$url", "$what, override, apache path, EnableSendfile unset", "$id apache", "ap_$id", "ap_{$id}_layer"];
        $c["ap_{$id}_off"] = ['fc', "/nosendfile/$url", "$what, override, apache path, EnableSendfile Off", "$id apache sf-off", "ap_$id", "ap_{$id}_layer"];
    }
    return $c;
}

function http_apache_case(array &$cfg): array
{
    $size = $cfg['mode'] === 'smoke' ? MIB : GIB;
    $out = ['size' => $size, 'rows' => []];
    foreach (['/usr/sbin/apache2', APACHE_MODULES . '/libphp8.2.so'] as $need) {
        if (!file_exists($need)) {
            return $out + ['error' => "$need not installed (tests/integration/setup.sh installs Apache and mod_php)"];
        }
    }
    if ($cfg['ext'] === '' || !$cfg['override']) {
        return $out + ['error' => 'the extension with fastcopy.override is needed'];
    }
    if (fclib_autoload('dav') === null) {
        return $out + ['error' => 'sabre/dav not installed (tests/integration/setup.sh)'];
    }
    // Apache's child runs as www-data under root: the scratch directory must let it
    // reach the file, the scripts and its own directory.
    $d = $cfg['work'] . '/apache';
    @mkdir($d, 0777, true);
    chmod($cfg['work'], 0755);
    chmod($d, 0777);
    $file = "$d/src-$size.bin";
    make_file($file, $size);
    chmod($file, 0644);
    warm_file($file);
    $scripts = dirname(__DIR__) . '/cases/http';
    $contenders = apache_contenders(basename($file));
    $children = $ports = [];
    say(sprintf('%-10s %-12s ', 'apache', human_size($size)));
    $tc = microtime(true);
    return run_http_case('apache', $out, function (array &$out, array &$servers)
            use (&$cfg, $children, $contenders, $d, $file, $ports, $scripts, $size, $tc): void {
        foreach (['stock' => [], 'layer' => ['fastcopy.disable=apache'], 'fc' => []] as $inst => $ini) {
            @mkdir("$d/ap-$inst", 0777);
            chmod("$d/ap-$inst", 0777);
            $lines = ['memory_limit=128M', 'output_buffering=4096', 'display_errors=0', 'log_errors=1',
                "error_log=$d/ap-$inst/php-errors.log", ...fclib_ini()];
            if ($inst !== 'stock') {
                array_push($lines, 'extension=' . $cfg['ext'], 'fastcopy.override=1', ...$ini);
            }
            file_put_contents("$d/ap-$inst/php.ini", implode("\n", $lines) . "\n");
            $ports[$inst] = free_port();
            file_put_contents("$d/ap-$inst/httpd.conf", apache_conf($d, $inst, $ports[$inst], $file, $scripts));
            // A session of its own: prefork's parent stops by signalling its whole process group.
            [$p, $master] = start_server(['setsid', 'env', 'PHP_INI_SCAN_DIR=', '/usr/sbin/apache2', '-f',
                "$d/ap-$inst/httpd.conf", '-D', 'FOREGROUND'], "$d/ap-$inst/out.log", $cfg);
            $servers[] = $p;
            $children[$inst] = wait_worker($master, "$d/ap-$inst/error.log");
        }
        $rows = [];
        $live = array_keys($contenders);
        foreach ($live as $id) {
            $rows[$id] = ['runs' => [], 'na' => null];
        }
        for ($rep = $cfg['warmup'] ? -1 : 0; $rep < $cfg['runs']; $rep++) {
            foreach (rotated($live, $rep) as $id) {
                if (isset($rows[$id]['error'])) {
                    continue;
                }
                [$inst, $url] = $contenders[$id];
                $child = $children[$inst];
                wait_quiet($cfg);
                settle([$child]);
                $c0 = proc_cpu($child);
                [$code, $bytes, $time] = http_get("http://127.0.0.1:{$ports[$inst]}$url");
                settle([$child]);
                $c1 = proc_cpu($child);
                if ($code !== '200' || $bytes !== $size) {
                    $rows[$id]['error'] = "HTTP $code, $bytes bytes (expected $size): " . tail("$d/ap-$inst/error.log", 200)
                        . ' ' . tail("$d/ap-$inst/php-errors.log", 200);
                    say("  $id: {$rows[$id]['error']}");
                    continue;
                }
                if ($rep >= 0) {
                    $rows[$id]['runs'][] = ['wall' => $time, 'bytes' => $bytes, 'cpu' => $c1 - $c0];
                }
            }
            echo '.';
        }
        if ($cfg['has_strace']) {
            foreach ($live as $id) {
                if (isset($rows[$id]['error'])) {
                    continue;
                }
                [$inst, $url] = $contenders[$id];
                settle([$children[$inst]]);
                $t = strace_attach($children[$inst], "$d/strace-$id.txt");
                [$code, $bytes] = http_get("http://127.0.0.1:{$ports[$inst]}$url");
                settle([$children[$inst]]);
                $rows[$id]['syscalls'] = strace_detach($t);
                if ($code !== '200' || $bytes !== $size) {
                    $rows[$id]['syscalls'] = null;
                }
            }
            echo 's';
        }
        say(sprintf(' %.1f s', microtime(true) - $tc));

        $perGib = static fn (?float $s) => $s === null ? null : $s / ($size / GIB);
        $sys = static fn (?array $s) => $s === null ? null : ['per_gib' => (int) round($s['total'] * GIB / $size)] + $s;
        foreach ($contenders as $id => [$inst, $url, $label, $short]) {
            $r = $rows[$id];
            $walls = array_column($r['runs'], 'wall');
            $cpu = array_column($r['runs'], 'cpu');
            $script = preg_match('#^(/nosendfile)?/(\w+)\.php#', $url, $m) ? ($m[1] ? 'off-' : '') . $m[2] : '';
            $stats = $script === '' ? false : @file_get_contents("$d/stats-ap-$inst-$script.json");
            $out['rows'][] = [
                ...http_row('http_apache', 'HTTP: Apache 2.4 prefork + mod_php, curl client', $size, $id, $label, $short),
                ...row_timing($r, $walls, $size),
                ...row_cpu($cpu, $perGib),
                'cpu_runs_per_gib' => array_map($perGib, $cpu),
                'cpu_process' => 'Apache child',
                'maxrss_kb' => null,
                'syscalls' => $sys($r['syscalls'] ?? null),
                'engine' => $stats ? json_decode($stats, true) : null,
                'walls' => $walls,
            ];
        }
        $byId = array_column($out['rows'], null, 'contender');
        $ratio = static function (array $a, ?array $b, string $field): ?float {
            return $b === null || $b['status'] !== 'ok' || $a['status'] !== 'ok' || !($b[$field] > 0) ? null : $a[$field] / $b[$field];
        };
        foreach ($out['rows'] as &$r) {
            [, , , , $base, $layer] = $contenders[$r['contender']];
            $b = $base ? $byId[$base] : null;
            $r['base'] = $b['short'] ?? null;
            $r['vs_stock'] = $b ? $ratio($b, $r, 'wall_median') : null; // above 1 is faster
            $r['cpu_vs_stock'] = $ratio($r, $b, 'cpu_per_gib');
            $r['layer'] = $layer ? $byId[$layer]['short'] : null;
            $r['cpu_vs_layer'] = $layer ? $ratio($r, $byId[$layer], 'cpu_per_gib') : null;
            $r['floor'] = 'Apache static';
            $r['cpu_vs_floor'] = $ratio($r, $byId['ap_static'], 'cpu_per_gib');
            $r['syscalls_vs_floor'] = ($r['syscalls'] && $byId['ap_static']['syscalls'])
                ? $r['syscalls']['per_gib'] / max(1, $byId['ap_static']['syscalls']['per_gib']) : null;
            $r['vs_ref'] = null;
        }
        unset($r);
    });
}
