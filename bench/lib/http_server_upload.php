<?php
// The whole server's cost of an upload: what nginx and the PHP-FPM worker spend
// together to store a PUT, beside what nginx spends storing it itself (its WebDAV
// PUT: the body into its temp file, then rename(): the floor). nginx keeps request
// buffering on, as Nextcloud's admin manual requires, and hands PHP the body
//   sock  over the FastCGI socket (fastcgi_request_buffering on, the default), or
//   file  as the file it stored (client_body_in_file_only clean,
//         fastcgi_pass_request_body off, REQUEST_BODY_FILE),
// stored by stream_copy_to_stream() or Nextcloud's File::put() shape, stock PHP
// against fastcopy.override=1. nginx's temp files, the stored files and PHP's
// upload_tmp_dir share one directory (--upload-dir: an XFS loop mount, say).
// Uses nginx_conf() from http.php and the timed PUTs of put.php.
declare(strict_types=1);

function http_server_upload_case(array &$cfg): array
{
    $out = put_case($cfg, ['the extension was not built with its override' => $cfg['ext'] === '' || !$cfg['override']]);
    if (isset($out['error'])) {
        return $out;
    }
    $size = $out['size'];
    $d = $cfg['work'] . '/server-upload';
    @mkdir("$d/tmp", 0700, true);
    $store = ($cfg['upload_dir'] ?? "$d/store") . '/server-upload';
    @mkdir("$store/dav", 0700, true);
    @mkdir("$store/spool", 0700, true);
    $out['upload_dir'] = $store;
    $out['upload_fs'] = put_fs($store);
    [$body, $sha] = put_body($cfg, $size);
    $libs = fclib_autoload('dav') !== null;
    // One FPM master per kind, each behind two locations: the body on the socket, or as a file.
    $pools = [];
    $asFile = ['client_body_in_file_only clean', 'fastcgi_pass_request_body off', 'fastcgi_param REQUEST_BODY_FILE $request_body_file'];
    foreach (['stock' => [], 'fc' => ['extension=' . $cfg['ext'], 'fastcopy.override=1']] as $kind => $ini) {
        $pools["sock-$kind"] = ['addr' => "$d/$kind.sock", 'ini' => $ini];
        $pools["file-$kind"] = ['addr' => "$d/$kind.sock", 'directives' => $asFile];
    }
    $port = free_port();
    // nginx's temp files on the store's filesystem, for its own PUT's rename() and body_file's reflink
    file_put_contents("$d/nginx.conf", nginx_conf($d, $port, ['client_max_body_size 0'],
        $pools, dirname(__DIR__) . '/cases/http', '$', [
            'REQUEST_METHOD' => '$request_method', 'CONTENT_TYPE' => '$content_type', 'CONTENT_LENGTH' => '$content_length',
            'SERVER_PROTOCOL' => '$server_protocol', 'FCBENCH_UPLOAD_FILE' => "$store/{pool}-\$1.bin",
            'FCBENCH_STATS' => "$d/stats-{pool}-\$1.json",
        ], ['fastcgi_read_timeout 600s', "client_body_temp_path $store/nginx-body"],
        "        location /dav/ {\n            root $store;\n            client_body_temp_path $store/nginx-body;\n"
        . "            dav_methods PUT;\n            create_full_put_path on;\n        }\n"));
    $contenders = server_upload_contenders();
    say(sprintf('%-10s %-12s ', 'server PUT', human_size($size)));
    $tc = microtime(true);
    return run_http_case('server upload', $out, function (array &$out, array &$servers)
            use (&$cfg, $body, $contenders, $d, $libs, $pools, $port, $sha, $size, $store, $tc): void {
        $fpmIni = ['-d', 'memory_limit=128M', '-d', 'output_buffering=4096', '-d', "upload_tmp_dir=$store/spool"];
        foreach (fclib_ini() as $line) {
            array_push($fpmIni, '-d', $line);
        }
        [$workers, $nginx] = put_servers($cfg, $d, array_filter($pools, fn (array $p): bool => isset($p['ini'])), $fpmIni, $servers);
        $rows = [];
        $live = [];
        foreach ($contenders as $id => $c) {
            $na = str_contains($id, 'nextcloud') && !$libs ? 'n/a (icewind/streams not installed: tests/integration/setup.sh)' : null;
            $rows[$id] = ['runs' => [], 'na' => $na, 'checked' => 0];
            if ($na === null) {
                $live[] = $id;
            }
        }
        // One PUT: [run] or an error; the stored file is removed before and after.
        $put = static function (string $id, bool $strace) use (&$cfg, $contenders, $workers, $nginx, $port, $store, $body, $size, $sha, $d): array|string {
            [$path, $file, , $pool] = $contenders[$id];
            $dest = "$store/$file";
            @unlink($dest);
            $worker = $pool === null ? null : $workers['sock-' . substr($pool, 5)];
            $run = timed_put($cfg, ['nginx' => $nginx] + ($worker ? ['worker' => $worker] : []), "http://127.0.0.1:$port$path", $body,
                $strace && $worker ? ['worker' => "$d/strace-$id-worker.txt"] : []);
            $ok = in_array($run['code'], ['201', '204'], true) && $run['bytes'] === $size && stored_whole($dest, $size, $sha);
            @unlink($dest);
            if (!$ok) {
                return "HTTP {$run['code']}, sent {$run['bytes']} of $size bytes, the file stored not the body: "
                    . ($pool ? tail("$d/fpm-up-sock-" . substr($pool, 5) . '.log', 200) : '') . ' ' . tail("$d/nginx-error.log", 200);
            }
            return $run;
        };
        put_rounds($cfg, $live, fn (string $id) => $put($id, false), $rows);
        if ($cfg['has_strace']) {
            foreach ($live as $id) {
                if (!isset($rows[$id]['error']) && $contenders[$id][3] !== null && is_array($run = $put($id, true))) {
                    $rows[$id]['checked']++;
                    $rows[$id]['syscalls'] = $run['syscalls']['worker'];
                }
            }
            echo 's';
        }
        say(sprintf(' %.1f s', microtime(true) - $tc));

        $perGib = static fn (?float $s) => $s === null ? null : $s / ($size / GIB);
        $cpu = static fn (array $runs, string $role): array => array_map(fn (array $r): float => $r['cpu'][$role] ?? 0.0, $runs);
        foreach ($contenders as $id => [$path, , $label, $pool]) {
            $r = $rows[$id];
            $server = array_map(fn (array $run): float => array_sum($run['cpu']), $r['runs']);
            $stats = $pool ? @file_get_contents("$d/stats-$pool-" . preg_replace('#^.*/(\w+)\.php$#', '$1', $path) . '.json') : false;
            $out['rows'][] = [
                ...http_row('http_server_upload', 'HTTP upload, whole server: curl PUT → nginx (request buffering on) → PHP-FPM', $size,
                    $id, $label, $id),
                ...row_timing($r, array_column($r['runs'], 'wall'), $size),
                'cpu_per_gib' => $perGib(median($cpu($r['runs'], 'worker'))),
                'nginx_cpu_per_gib' => $perGib(median($cpu($r['runs'], 'nginx'))),
                'server_cpu_per_gib' => $perGib(median($server)),
                'server_cpu_runs_per_gib' => array_map($perGib, $server),
                'syscalls' => isset($r['syscalls']) ? ['per_gib' => (int) round($r['syscalls']['total'] * GIB / $size)] + $r['syscalls'] : null,
                'sha256_checked' => $r['checked'],
                'engine' => $stats ? json_decode($stats, true) : null,
                'vs_ref' => null,
            ];
        }
        $floor = array_column($out['rows'], null, 'contender')['dav'];
        foreach ($out['rows'] as &$row) {
            $row['server_vs_floor'] = $row['status'] === 'ok' && $floor['status'] === 'ok' && $floor['server_cpu_per_gib'] > 0
                ? $row['server_cpu_per_gib'] / $floor['server_cpu_per_gib'] : null;
        }
        unset($row);
    });
}

/** The contenders: id => [location, stored file (under the store), label, pool or null (nginx alone)]. */
function server_upload_contenders(): array
{
    $c = ['dav' => ['/dav/dav.bin', 'dav/dav.bin', "nginx's own WebDAV PUT (dav_methods PUT): the floor", null]];
    $shapes = ['copy' => 'stream_copy_to_stream(php://input, $file)', 'nextcloud' => "Nextcloud's File::put() shape"];
    foreach (['sock' => 'body over the FastCGI socket', 'file' => 'body as the file nginx stored (REQUEST_BODY_FILE)'] as $how => $what) {
        foreach ($shapes as $shape => $label) {
            foreach (['stock' => 'stock', 'fc' => 'override'] as $pool => $who) {
                $c["$how-$shape-$pool"] = ["/$how-$pool/up_$shape.php", "$how-$pool-up_$shape.bin", "$label, $who, $what", "$how-$pool"];
            }
        }
    }
    return $c;
}

/** The case's table for the report. */
function server_upload_markdown(array $up): string
{
    $md = "\n### HTTP uploads, the whole server: curl PUT → nginx 1 worker (request buffering on) → PHP-FPM (1 worker, unix socket)\n\n";
    if (!empty($up['error'])) {
        return $md . "Not run: {$up['error']}\n";
    }
    $md .= "nginx's temp files, the stored files and upload_tmp_dir in `{$up['upload_dir']}` ({$up['upload_fs']}); "
        . human_size($up['size']) . ' per PUT, the sha256 of every stored file checked. CPU seconds per GiB, medians; '
        . "the ratio is the whole server's (nginx + worker) to nginx's own PUT in this run.\n\n";
    $f = static fn (?float $v): string => $v === null ? '—' : sprintf('%.2f', $v);
    return $md . md_table('| contender | nginx | PHP worker | whole server | vs nginx\'s own PUT | worker syscalls/GiB | engine |',
        '|---|--:|--:|--:|--:|--:|---|', $up['rows'], function (array $r) use ($f): string {
            $paths = [];
            foreach ($r['engine'] ?? [] as $path => $st) {
                if (is_array($st) && ($st['bytes'] ?? 0) > 0) {
                    $paths[] = $path . (($st['spool_shared'] ?? 0) > 0 ? ' (spool shared)' : '');
                }
            }
            return sprintf("| %s | %s | %s | **%s** | %s | %s | %s |\n", $r['label'], $f($r['nginx_cpu_per_gib']),
                $r['contender'] === 'dav' ? '—' : $f($r['cpu_per_gib']), $f($r['server_cpu_per_gib']),
                $r['server_vs_floor'] === null ? '—' : sprintf('%.2f×', $r['server_vs_floor']),
                $r['syscalls'] ? number_format($r['syscalls']['per_gib']) : '—', implode(', ', $paths) ?: '—');
        });
}
