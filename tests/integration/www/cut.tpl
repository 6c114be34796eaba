<?php
// Sends FCINT_FILES['cut'] while the test truncates it: with readfile() in one
// copy or in sabre/http's 4 MiB pieces, with or without Content-Length, aborts
// ignored or not. What the
// script saw goes to a log from a shutdown function, which runs whether or not
// the script was ended by an abort.
require __DIR__ . '/_config.inc';

$path = FCINT_FILES['cut'];
ignore_user_abort(($_GET['ignore'] ?? '0') === '1');
$stats = fn () => function_exists('fastcopy_stats') ? fastcopy_stats() : null;
$state = ['returned' => null, 'reached_end' => false, 'before' => $stats()];
register_shutdown_function(function () use (&$state, $stats): void {
    file_put_contents(FCINT_LOGDIR . '/' . basename($_GET['log']), json_encode($state + [
        'after' => $stats(),
        'connection_aborted' => connection_aborted(),
        'pid' => getmypid(),
    ]));
});
header('Content-Type: application/octet-stream');
if (($_GET['cl'] ?? '0') === '1') {
    header('Content-Length: ' . filesize($path));
}
if (($_GET['fn'] ?? 'readfile') === 'pieces') {
    $h = fopen($path, 'rb');
    $out = fopen('php://output', 'wb');
    $state['returned'] = 0;
    while (!feof($h) && ($got = stream_copy_to_stream($h, $out, 4 << 20)) > 0) {
        $state['returned'] += $got;
    }
} else {
    $state['returned'] = readfile($path);
}
$state['reached_end'] = true;
