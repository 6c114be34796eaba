<?php
// Shared by the upload scripts of the HTTP case: store the PUT body in the file
// nginx names in FCBENCH_UPLOAD_FILE with the given writer, answer 201 when it
// stored CONTENT_LENGTH bytes, and leave what the engine did where the runner
// reads it (FCBENCH_STATS), if the extension is loaded.
declare(strict_types=1);

require_once dirname(__DIR__, 3) . '/tests/inc/stats.inc';

function fcb_upload(callable $store): void
{
    $stats = function_exists('fastcopy_stats') && !empty($_SERVER['FCBENCH_STATS']);
    $before = $stats ? fastcopy_stats() : [];
    $n = $store($_SERVER['FCBENCH_UPLOAD_FILE']);
    if ($stats) {
        file_put_contents($_SERVER['FCBENCH_STATS'], json_encode(fc_stats_delta($before, fastcopy_stats())));
    }
    if ($n !== (int) $_SERVER['CONTENT_LENGTH']) {
        error_log('fcbench: stored ' . var_export($n, true) . " of {$_SERVER['CONTENT_LENGTH']} bytes in {$_SERVER['SCRIPT_NAME']}");
        http_response_code(500);
        return;
    }
    http_response_code(201);
}
