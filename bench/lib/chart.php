<?php
// The gnuplot charts of a run: the copy cases' GiB/s per contender, and the HTTP
// cases' throughput and CPU per GiB; the markdown that shows them or says why not.
declare(strict_types=1);

/** The cases drawn by http_chart(), never by chart(). */
const HTTP_CASES = ['http', 'http_apache', 'http_lighttpd', 'http_upload'];

/** The copy cases' contenders as the chart names them: what a reader knows them by. */
const CHART_NAMES = [
    'stock' => 'stream_copy_to_stream()', 'fpassthru' => 'fpassthru()', 'readfile' => 'readfile()', 'copy' => 'copy()',
    'fastcopy' => 'fastcopy_stream()', 'readfile_ov' => 'readfile(), override', 'copy_ov' => 'copy(), override',
    'c_sendfile' => 'C sendfile loop', 'c_cfr' => 'C copy_file_range loop', 'c_splice' => 'C splice loop',
    'c_read' => 'C read()', 'cp' => 'cp',
    'fastcopy_copy' => 'fastcopy_stream(), same_host=copy', 'fastcopy_cp' => 'fastcopy_stream(), copies forced',
    'c_mmapwrite' => 'C write() from a mapping',
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
        'fastcopy' => '#e6550d', 'readfile_ov' => '#fd8d3c', 'copy_ov' => '#fdae6b', 'fastcopy_copy' => '#a63603', 'fastcopy_cp' => '#fdae6b',
        'c_sendfile' => '#3182bd', 'c_cfr' => '#3182bd', 'c_splice' => '#3182bd', 'c_read' => '#3182bd', 'cp' => '#6baed6',
        'c_mmapwrite' => '#6baed6'];
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
        $panels[] = [$file, $title, $top, false];
        // A case measured at both ends: a panel more beside it, the CPU per GiB of the two
        // ends (the sender solid, the receiver pale above it: the host's cost).
        $lines = '';
        $top = 0.0;
        foreach ($results as $r) {
            if ($r['case'] !== $case || $r['size'] !== $size || !array_key_exists('both_cpu_median', $r)) {
                continue;
            }
            $ok = $r['status'] === 'ok' && $r['both_cpu_median'] !== null;
            $per = $ok ? GIB / $r['bytes'] : 0;
            $top = max($top, $ok ? $r['both_cpu_median'] * $per : 0.0);
            $lines .= sprintf("\"%s\" %s %s %d \"%s\"\n", CHART_NAMES[$r['contender']] ?? $r['label'],
                $ok ? sprintf('%.4f', $r['cpu_median'] * $per) : '?', $ok ? sprintf('%.4f', $r['both_cpu_median'] * $per) : '?',
                hexdec(substr($colors[$r['contender']] ?? '#000000', 1)), $ok ? sprintf('%.2f', $r['both_cpu_median'] * $per) : 'n/a');
        }
        if ($lines !== '') {
            file_put_contents("$dir/$case-cpu.dat", $lines);
            $panels[] = ["$dir/$case-cpu.dat", "$title\\nCPU s per GiB (lower is better): the sender solid, the receiver pale above it", $top, true];
        }
    }
    $n = count($panels);
    if ($n === 0) {
        return null;
    }
    $cols = 3;
    $rowsN = (int) ceil($n / $cols);
    $height = 520 * $rowsN + 110;
    // The run and the colours on four lines above the panels; the layout's margins keep
    // the panels' own titles clear of them.
    $head = sprintf('fastcopy benchmark (%s): throughput, GiB/s (higher is better), one copy at a time; where the receiver reads, the two ends\' CPU beside it\n%s\n'
        . 'grey: stock PHP   orange: fastcopy (fastcopy_stream(), or a built-in with fastcopy.override=1; dark: fastcopy.same_host=copy, pale: copies forced)\n'
        . 'blue: a C program making the raw syscall, or cp: the limit of the machine (pale: write() from a mapping, the copy route)', $cfg['mode'], chart_run_line($cfg['meta'] ?? []));
    $s = "set terminal pngcairo noenhanced size 1800,$height font 'DejaVu Sans,10'\nset output '$png'\nset datafile missing '?'\n";
    $s .= sprintf("set multiplot layout %d,%d title \"%s\" font ',11' margins 0.05,0.98,%.3f,%.3f spacing 0.07,%.3f\n",
        $rowsN, $cols, $head, 150 / $height, 1 - 130 / $height, 190 / $height);
    $s .= "set style fill solid 0.9 noborder\nset boxwidth 0.7\nset grid ytics\nset xtics rotate by 25 right nomirror\nunset key\nset offsets 0.5,0.5,0,0\n";
    foreach ($panels as [$file, $title, $top, $cpu]) {
        $t = str_replace(["'", '"', '→'], ['', '', '->'], $title);
        // room above the tallest bar for its figure
        $s .= sprintf("set yrange [0:%.4f]\n", $top > 0 ? $top * 1.15 : 1);
        $s .= $cpu
            ? "set title \"$t\"\nplot '$file' using 0:3:4 with boxes lc rgb variable fs transparent solid 0.35, '' using 0:2:4 with boxes lc rgb variable, "
                . "'' using 0:3:5:xtic(1) with labels offset 0,0.7 font ',8'\n"
            : "set title '$t'\nplot '$file' using 0:2:3 with boxes lc rgb variable, '' using 0:4:5:xtic(1) with labels offset 0,0.7 font ',8'\n";
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
    } elseif ($r['case'] === 'http' || $r['case'] === 'http_lighttpd') {
        $id = preg_replace(['/_tcp$/', '/^lt_/'], '', $r['contender']);
        $panel = ($r['case'] === 'http' ? 'nginx' : 'lighttpd') . ' + PHP-FPM, ' . match ($r['listen'] ?? null) {
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
    // The C floor of the path's own route, the splice route's on either pool socket; the copy
    // route's (fcref fastcgi_copy) is in the tables, not drawn.
    if ($id === 'cref') {
        return [$panel, null, 'floor'];
    }
    if ($id === 'cref_copy') {
        return null;
    }
    if ($id === 'stock' || $id === 'fastcopy') {
        return [$panel, 'stream_copy_to_stream()', $id === 'stock' ? 'stock' : 'fastcopy'];
    }
    $kinds = ['_layer' => 'layer', '_through' => 'wrapper', '_ov' => 'fastcopy', '_cp' => 'copies', '_ho' => 'handover', '_off' => 'sf off'];
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
    $colors = ['stock' => '#7f7f7f', 'wrapper' => '#9e9ac8', 'layer' => '#fdae6b', 'copies' => '#a6761d', 'fastcopy' => '#e6550d',
        'handover' => '#1c9099', 'sf off' => '#a63603', 'clone' => '#6a51a3'];
    $tic = ['clone' => '+clone', 'handover' => 'ho'];
    // Every abbreviation the chart uses, said in full under its title.
    $say = [
        'stock' => 'stock: PHP without fastcopy',
        'wrapper' => 'wrapper: the override reading through the userspace wrapper (fastcopy.disable=wrappers; the only way before the engine saw through it)',
        'layer' => "layer: the override on PHP's output layer (its fastcgi or apache path off)",
        'fastcopy' => 'fastcopy: fastcopy.override=1, every path on (the fastcgi path splices, on a TCP pool too)',
        'copies' => 'copies: the same with fastcopy.same_host=copy (on a TCP pool, its web server on this host, the fastcgi path writes its records from a mapping)',
        'handover' => 'ho: the hand-over, the override where the web server declares it and sends the file itself (X-Accel-Redirect, X-Sendfile2)',
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
            // The front end serving the file itself: the CPU floor of its panels too (the whole
            // server's, which the pale bars show, for nginx and lighttpd).
            if ($kind === 'static') {
                $panels[$panel]['static_cpu'] = $r['server_cpu_per_gib'] ?? $r['cpu_per_gib'];
            }
        } else {
            $panels[$panel]['bars'][$workload][$kind] = $r;
        }
    }
    // nginx and lighttpd serve their static file without a pool: its lines go into each of their panels.
    foreach ($panels as $name => $p) {
        if (!isset($p['bars']) && isset($p['static'])) {
            foreach ($panels as $other => $q) {
                if (isset($q['bars']) && !isset($q['static']) && strtok($other, ' ') === strtok($name, ' ')) {
                    $panels[$other]['static'] = $p['static'];
                    $panels[$other]['static_cpu'] = $p['static_cpu'];
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
    $order = fn (string $n): array => [str_starts_with($n, 'uploads'), str_starts_with($n, 'Apache'), str_starts_with($n, 'lighttpd'), str_contains($n, 'TCP')];
    uksort($panels, fn (string $a, string $b): int => $order($a) <=> $order($b));
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
        $fe = match (true) {
            str_starts_with($name, 'uploads') => 'upload',
            default => strtok($name, ' '),
        };
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
        $floor .= isset($p['static_cpu']) ? sprintf(", %.4f with lines dt 2 lw 2 lc rgb '#31a354' title '%s serving the file itself (%.2f)'",
            $p['static_cpu'], $fe, $p['static_cpu']) : '';
        $cpuTitle = match ($fe) {
            'nginx', 'upload' => 'CPU s per GiB (lower is better): the PHP-FPM worker solid, nginx pale above it',
            'lighttpd' => 'CPU s per GiB (lower is better): the PHP-FPM worker solid, lighttpd pale above it',
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
