<?php
// Sends a large file while the client goes away; logs what the script saw,
// from a shutdown function so the log exists whether or not it was aborted.
require __DIR__ . '/_config.inc';
require FCINT_ENDPOINT_LIB;

$path = FCINT_FILES['blob'];
$fn = $_GET['fn'] ?? 'readfile';
ignore_user_abort(($_GET['ignore'] ?? '0') === '1');
$state = ['returned' => null, 'reached_end' => false, 'aborted_after_copy' => null];
register_shutdown_function(function () use (&$state): void {
    fcep_log($_GET['log'] ?? 'abort.log', $state + [
        'ignore_user_abort' => (bool) ignore_user_abort(),
        'connection_aborted' => connection_aborted(),
        'connection_status' => connection_status(),
    ]);
});
header('Content-Type: application/octet-stream');
header('Content-Length: ' . filesize($path));
$state['returned'] = fcep_emit($fn, $path);
$state['aborted_after_copy'] = connection_aborted();
$state['reached_end'] = true;
