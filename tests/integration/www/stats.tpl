<?php
// The serving worker's counters (pm.max_children=1: the same worker as the download).
header('Content-Type: application/json');
header('Cache-Control: no-store');
echo json_encode([
    'pid' => getmypid(),
    'override' => ini_get('fastcopy.override'),
    'stats' => function_exists('fastcopy_stats') ? fastcopy_stats() : null,
]);
