<?php
// Sends a file once the test says its client has gone and nginx has closed the
// FastCGI connection: the first bytes the worker then writes (the headers, flushed
// before the copy) reach a closed socket. Logs from a shutdown function, so the
// log exists however the script ends.
require __DIR__ . '/_config.inc';
require FCINT_ENDPOINT_LIB;

$stats = fn () => function_exists('fastcopy_stats') ? fastcopy_stats() : null;
$log = $_GET['log'];
ignore_user_abort(true);
$state = ['returned' => null, 'before' => $stats()];
register_shutdown_function(function () use (&$state, $stats, $log): void {
    fcep_log($log, $state + ['after' => $stats(), 'connection_aborted' => connection_aborted()]);
});
header('Content-Type: application/octet-stream');
fcep_log("$log.started", ['pid' => getmypid()]);
$go = FCINT_LOGDIR . '/' . basename($log) . '.go';
for ($deadline = microtime(true) + 60; !file_exists($go) && microtime(true) < $deadline;) {
    usleep(20000);
}
$state['returned'] = fcep_emit($_GET['fn'], FCINT_FILES['odd']);
