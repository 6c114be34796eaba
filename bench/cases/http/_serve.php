<?php
// Shared by the scripts PHP-FPM runs in the HTTP case: send the file nginx
// names in FCBENCH_FILE with the given body writer, and leave what the engine
// did for this request where the runner can read it (FCBENCH_STATS), if it is
// loaded.
declare(strict_types=1);

/** What the engine counted between two fastcopy_stats() snapshots. */
function fcb_stats_delta(array $before, array $after): array
{
    $d = [];
    foreach ($after as $path => $s) {
        $b = $before[$path] ?? ['calls' => 0, 'bytes' => 0, 'fallbacks' => []];
        $falls = [];
        foreach ($s['fallbacks'] as $why => $n) {
            if ($n - ($b['fallbacks'][$why] ?? 0) > 0) {
                $falls[$why] = $n - ($b['fallbacks'][$why] ?? 0);
            }
        }
        $d[$path] = ['calls' => $s['calls'] - $b['calls'], 'bytes' => $s['bytes'] - $b['bytes'], 'fallbacks' => $falls];
    }
    return $d;
}

function fcb_serve(callable $send): void
{
    $file = $_SERVER['FCBENCH_FILE'];
    header('Content-Type: application/octet-stream');
    header('Content-Length: ' . filesize($file));
    $stats = function_exists('fastcopy_stats') && !empty($_SERVER['FCBENCH_STATS']);
    $before = $stats ? fastcopy_stats() : [];
    $ok = $send($file) !== false;
    if ($stats) {
        file_put_contents($_SERVER['FCBENCH_STATS'], json_encode(fcb_stats_delta($before, fastcopy_stats())));
    }
    if (!$ok) {
        error_log('fcbench: copy failed for ' . $_SERVER['SCRIPT_NAME']);
    }
}
