<?php
// Shared by the scripts PHP-FPM runs in the HTTP case: send the file nginx
// names in FCBENCH_FILE with the given body writer, and leave what the engine
// did for this request where the runner can read it (FCBENCH_STATS), if it is
// loaded.
declare(strict_types=1);

require_once dirname(__DIR__, 3) . '/tests/inc/stats.inc';

function fcb_serve(callable $send): void
{
    $file = $_SERVER['FCBENCH_FILE'];
    header('Content-Type: application/octet-stream');
    header('Content-Length: ' . filesize($file));
    $stats = function_exists('fastcopy_stats') && !empty($_SERVER['FCBENCH_STATS']);
    $before = $stats ? fastcopy_stats() : [];
    $ok = $send($file) !== false;
    if ($stats) {
        file_put_contents($_SERVER['FCBENCH_STATS'], json_encode(fc_stats_delta($before, fastcopy_stats())));
    }
    if (!$ok) {
        error_log('fcbench: copy failed for ' . $_SERVER['SCRIPT_NAME']);
    }
}
