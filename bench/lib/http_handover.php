<?php
// What the download cases need for the hand-over (fastcopy.override under PHP-FPM with
// the web server declaring it: the response leaves as X-Accel-Redirect or X-Sendfile2
// and the web server sends the file itself): the data directory the file must lie
// under, nginx's configuration written from conf/nginx's own two files as an operator
// includes them, and the worker's fastcopy_stats() read after a request has ended (the
// hand-over happens there, after anything the script could write about it).
declare(strict_types=1);

require_once dirname(__DIR__, 2) . '/tests/inc/stats.inc';

/** The file the download cases send, $size bytes in the page cache, in the directory the hand-over is declared for. */
function http_data_file(array $cfg, int $size): string
{
    $data = $cfg['work'] . '/http-data';
    @mkdir($data, 0755, true);
    $file = "$data/src-$size.bin";
    make_file($file, $size);
    warm_file($file);
    return $file;
}

/**
 * conf/nginx's two files written into $d, the data directory on the lines that carry
 * `# the data directory` (the last path on the line), and $more headers given back
 * by the internal location and listed in FASTCOPY_HANDOVER_HEADERS beside ETag and
 * Last-Modified. Returns the include for the server block and the one for a PHP location.
 */
function handover_nginx_conf(string $d, string $data, array $more): array
{
    $mark = '# the data directory';
    foreach (['fastcopy-handover.conf', 'fastcopy-handover-params.conf'] as $name) {
        $lines = [];
        foreach (file(dirname(__DIR__, 2) . "/conf/nginx/$name", FILE_IGNORE_NEW_LINES) as $l) {
            if (str_contains($l, $mark)) {
                $l = preg_replace('#/[^\s;]*?(/?;\s*' . preg_quote($mark, '#') . ')#', $data . '$1', $l);
            }
            if (str_contains($l, 'add_header Last-Modified')) {
                foreach ($more as $h) {
                    $lines[] = "    add_header $h \$upstream_http_" . strtolower(str_replace('-', '_', $h)) . ';';
                }
            }
            if (str_contains($l, 'FASTCOPY_HANDOVER_HEADERS')) {
                $l = str_replace('Last-Modified"', implode(' ', ['Last-Modified', ...$more]) . '"', $l);
            }
            $lines[] = $l;
        }
        // A file that did not say where the data directory goes would hand over from the sample's.
        if (!str_contains(implode("\n", $lines), $data)) {
            throw new RuntimeException("conf/nginx/$name: no line marked '$mark'");
        }
        file_put_contents("$d/$name", implode("\n", $lines) . "\n");
    }
    return ['server' => "include $d/fastcopy-handover.conf", 'params' => "include $d/fastcopy-handover-params.conf"];
}

/**
 * The hand-over declared as an operator would for the pools of http_pools() that ask for
 * it (ho): conf/nginx's files written into $d for the data directory $data, sabre's one
 * header nginx does not keep by itself given back (X-Sabre-Version), their parameters
 * included in those pools' locations. Returns [the pools, the line for the server block].
 */
function handover_nginx(array $pools, string $d, string $data): array
{
    $conf = handover_nginx_conf($d, $data, ['X-Sabre-Version']);
    foreach ($pools as &$pool) {
        $pool['directives'] = $pool['handover'] ? [$conf['params']] : [];
    }
    unset($pool);
    return [$pools, "        {$conf['server']};\n"];
}

/**
 * fastcopy_stats() of the one worker behind $statsUrl (cases/http/stats.php in its
 * pool), or null when the pool has no fastcopy.
 */
function worker_stats(string $statsUrl): ?array
{
    $s = json_decode((string) shell_exec('curl -s --max-time 30 ' . escapeshellarg($statsUrl)), true);
    return is_array($s['stats'] ?? null) ? $s['stats'] : null;
}

/**
 * fastcopy_stats() of a pool of $workers, each path's counters summed over them: as many
 * requests at once as there are workers, each holding its worker a moment, so that every
 * worker answers one. Null when the pool has no fastcopy or not every worker answered.
 */
function pool_stats(string $statsUrl, int $workers, string $tmp): ?array
{
    $args = '';
    for ($i = 0; $i < $workers; $i++) {
        $args .= ' ' . escapeshellarg("$statsUrl?hold=0.3") . ' -o ' . escapeshellarg("$tmp.$i");
    }
    exec("curl -s --max-time 30 --parallel --parallel-immediate$args >/dev/null 2>&1");
    $sum = [];
    $pids = [];
    for ($i = 0; $i < $workers; $i++) {
        $s = json_decode((string) @file_get_contents("$tmp.$i"), true);
        if (!is_array($s['stats'] ?? null)) {
            return null;
        }
        $pids[$s['pid']] = true;
        foreach (fc_stats_paths($s['stats']) as $path => $counters) {
            foreach ($counters as $key => $n) {
                if (is_array($n)) {
                    foreach ($n as $reason => $k) {
                        $sum[$path][$key][$reason] = ($sum[$path][$key][$reason] ?? 0) + $k;
                    }
                } else {
                    $sum[$path][$key] = ($sum[$path][$key] ?? 0) + $n;
                }
            }
        }
    }
    return count($pids) === $workers ? $sum : null;
}

/**
 * Whether the $responses requests between two worker_stats() or pool_stats() were each
 * handed over whole ($size bytes): null if they were, else what the hand-over's counters
 * say instead.
 */
function handover_missed(?array $before, ?array $after, int $size, int $responses = 1): ?string
{
    $h = fc_stats_delta($before, $after)['handover'] ?? null;
    if ($h === null) {
        return 'no fastcopy_stats() from the pool';
    }
    if (($h['responses'] ?? 0) === $responses && ($h['handed_over'] ?? 0) === $responses * $size && $h['fallbacks'] === []) {
        return null;
    }
    return sprintf('not handed over (%d of %d response(s) with %d bytes handed over%s)', $h['responses'] ?? 0, $responses,
        $h['handed_over'] ?? 0, $h['fallbacks'] ? ', given up: ' . implode(', ', array_keys($h['fallbacks'])) : '');
}
