<?php
// One download with the surroundings fastcgi_path.phpt varies: what comes before
// and after the file, the output handlers in the way, a range, the end of the
// request. The worker's fastcopy_stats() before and after the copy go to a log
// file named by the test, so the counters are the ones of this very request
// whatever the pool's process manager does.
require __DIR__ . '/_config.inc';

$q = $_GET;
$path = FCINT_FILES[$q['file'] ?? 'odd'];
$stats = fn () => function_exists('fastcopy_stats') ? fastcopy_stats() : null;

if (isset($q['disable'])) {
    ini_set('fastcopy.disable', $q['disable']);
}
if (isset($q['zlib'])) {
    ini_set('zlib.output_compression', '1');
}
switch ($q['ob'] ?? '') {
    case 'rot13': // a callback that changes every letter, wherever the chunks fall
        ob_start(fn (string $b) => str_rot13($b), 8192);
        break;
    case 'unchunked': // holds everything until the script says
        ob_start();
        break;
    case 'chunked': // a second plain buffer on top of output_buffering's
        ob_start(null, 16384);
        break;
}
header('Content-Type: application/octet-stream');
echo $q['pre'] ?? '';

$before = $stats();
$h = fopen($path, 'rb');
switch ($q['fn'] ?? 'readfile') {
    case 'readfile':
        $n = readfile($path);
        break;
    case 'fpassthru':
        fseek($h, (int) ($q['seek'] ?? 0));
        $n = fpassthru($h);
        break;
    case 'scts':
        $out = fopen('php://output', 'wb');
        $n = stream_copy_to_stream($h, $out, isset($q['len']) ? (int) $q['len'] : null, (int) ($q['off'] ?? 0));
        break;
    case 'pieces': // sabre/http's loop: the file in pieces of ?piece bytes
        $out = fopen('php://output', 'wb');
        $n = 0;
        while (!feof($h) && ($got = stream_copy_to_stream($h, $out, (int) $q['piece'])) > 0) {
            $n += $got;
        }
        break;
    case 'fastcopy':
        $out = fopen('php://output', 'wb');
        $n = fastcopy_stream($h, $out, isset($q['len']) ? (int) $q['len'] : null, (int) ($q['off'] ?? 0));
        break;
}
$after = $stats();
$pos = ftell($h);
// what PHP's output buffers hold right after the copy, and whether headers went out
$buffers = array_map(fn (array $b) => [$b['chunk_size'], $b['buffer_used']], ob_get_status(true));
$sent = headers_sent();

echo $q['post'] ?? '';
if (isset($q['finish'])) {
    // The client has its answer; what follows must not reach it.
    fastcgi_finish_request();
    echo 'after finish';
}
if (isset($q['log'])) {
    file_put_contents(FCINT_LOGDIR . '/' . basename($q['log']), json_encode([
        'returned' => $n, 'pos' => $pos, 'pid' => getmypid(), 'before' => $before, 'after' => $after,
        'buffers' => $buffers, 'headers_sent' => $sent,
        'finished' => isset($q['finish']),
        // descriptors the process holds at the end of the script (Linux)
        'fds' => isset($q['fds']) ? count(scandir('/proc/self/fd')) - 2 : null,
    ]));
}
