<?php
// Shared by the scripts PHP-FPM runs in the HTTP case: send the file nginx
// names in FCBENCH_FILE with the given body writer, and leave the engine's
// counters where the runner can read them (FCBENCH_STATS), if it is loaded.
declare(strict_types=1);

function fcb_serve(callable $send): void
{
    $file = $_SERVER['FCBENCH_FILE'];
    header('Content-Type: application/octet-stream');
    header('Content-Length: ' . filesize($file));
    $ok = $send($file) !== false;
    if (function_exists('fastcopy_stats') && !empty($_SERVER['FCBENCH_STATS'])) {
        file_put_contents($_SERVER['FCBENCH_STATS'], json_encode(fastcopy_stats()));
    }
    if (!$ok) {
        error_log('fcbench: copy failed for ' . $_SERVER['SCRIPT_NAME']);
    }
}
