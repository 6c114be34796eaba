<?php
// One upload scenario of tests/uploads/scenario.inc on this request's body
// (?ops=JSON&log=NAME): the report, with the worker's fastcopy_stats() before
// and after, goes to the log file NAME before anything is sent, so a client
// that has hung up does not keep it from the test; then it is the answer too.
require __DIR__ . '/_config.inc';
require FCINT_ENDPOINT_LIB;
require FCUP_SCENARIO;
require FCINT_AUTOLOAD;

// ?dir=: the destinations in a directory of the test's (another filesystem)
$dir = ($_GET['dir'] ?? FCINT_LOGDIR) . '/' . basename($_GET['log']) . '.d';
mkdir($dir);
// (the report comes at the end of the operations, or of a shutdown function running the last ones)
fcup_run(json_decode($_GET['ops'], true, 512, JSON_THROW_ON_ERROR), $dir, function (array $r): void {
    $r['pid'] = getmypid();
    // the worker's sockets but its listening one (fd 0): the FastCGI connection this request came on
    $r['conn'] = [];
    foreach (scandir('/proc/self/fd') ?: [] as $fd) {
        if (preg_match('/^[1-9][0-9]*$/', $fd) && str_starts_with((string) @readlink("/proc/self/fd/$fd"), 'socket:')) {
            $r['conn'][] = readlink("/proc/self/fd/$fd");
        }
    }
    fcep_log($_GET['log'], $r);
    header('Content-Type: application/json');
    echo json_encode($r);
});
