<?php
// One download as tests/handover/ vary it: the file (by name, under the data
// directory or not), the way it is copied, the headers and status set before, and
// what the script does after: more output, a buffer, a flush, a header() call,
// fastcgi_finish_request(), an exit in a shutdown function, the file removed,
// replaced or rewritten. What the script itself sees goes to a log file named by
// the test, to be compared with stock's.
require __DIR__ . '/_config.inc';

$q = $_GET;
// a name with any bytes in it, which no server takes in a URL: base64
if (isset($q['f64'])) {
    $q['f'] = base64_decode($q['f64']);
}
// as Nextcloud does: the script runs to its end, and logs, whatever the client does
ignore_user_abort(true);
$path = str_starts_with($q['f'], '/') ? $q['f'] : FCINT_HANDOVER_DIR . '/' . $q['f'];
$warnings = [];
set_error_handler(function (int $no, string $msg) use (&$warnings): bool {
    $warnings[] = $msg;
    return true;
});

if (isset($q['copy_of'])) {
    // a copy of its own, for a case that removes or replaces it
    copy(FCINT_HANDOVER_DIR . '/' . basename($q['copy_of']), $path);
}
if (isset($q['disable'])) {
    ini_set('fastcopy.disable', $q['disable']);
}
foreach ((array) ($q['hdr'] ?? []) as $line) {
    header($line, false);
}
if (isset($q['cl'])) {
    header('Content-Length: ' . ($q['cl'] === 'size' ? filesize($path) - (int) ($q['off'] ?? 0) : $q['cl']));
}
if (isset($q['status'])) {
    http_response_code((int) $q['status']);
}
if (($q['ob'] ?? '') === 'before') {
    ob_start(null, 65536);
}
echo $q['pre'] ?? '';

$len = isset($q['len']) ? (int) $q['len'] : null;
$off = (int) ($q['off'] ?? 0);
switch ($q['fn'] ?? 'readfile') {
    case 'readfile':
        $n = readfile($path);
        break;
    case 'fpassthru':
        $h = fopen($path, 'rb');
        fseek($h, $off);
        $n = fpassthru($h);
        break;
    case 'scts':
        $h = fopen($path, 'rb');
        $n = stream_copy_to_stream($h, fopen('php://output', 'wb'), $len, $off);
        break;
    case 'pieces': // sabre/http's loop: 4 MiB pieces
        $h = fopen($path, 'rb');
        $out = fopen('php://output', 'wb');
        fseek($h, $off);
        $n = 0;
        while (!feof($h) && ($len === null || $n < $len)
                && ($got = stream_copy_to_stream($h, $out, $len === null ? 4 << 20 : min(4 << 20, $len - $n))) > 0) {
            $n += $got;
        }
        break;
}
$pos = isset($h) ? ftell($h) : null;
$seen = ['returned' => $n, 'pos' => $pos];

if (isset($q['unlink'])) {
    unlink($path);
} elseif (isset($q['replace'])) {
    file_put_contents("$path.new", str_repeat('R', 1000));
    rename("$path.new", $path);
} elseif (isset($q['rewrite'])) {
    $w = fopen($path, 'r+b');
    fwrite($w, 'REWRITTEN');
    fclose($w);
} elseif (isset($q['truncate'])) {
    $w = fopen($path, 'r+b');
    ftruncate($w, (int) $q['truncate']);
    fclose($w);
}
if (($q['ob'] ?? '') === 'after') {
    ob_start(null, 65536);
}
echo $q['post'] ?? '';
if (isset($q['flush'])) {
    flush();
}
if (isset($q['header_after'])) {
    header('X-After: 1');
}
$seen += ['headers_sent' => headers_sent($file, $line), 'sent_at' => $line, 'headers_list' => headers_list(),
    'code' => http_response_code(), 'ob_length' => ob_get_length(), 'connection' => connection_status()];
if (isset($q['finish'])) {
    // the response ends here; what follows must not reach the client
    $seen['finished'] = fastcgi_finish_request();
    echo 'after finish';
}
if (isset($q['log'])) {
    file_put_contents(FCINT_LOGDIR . '/' . basename($q['log']), json_encode($seen + ['warnings' => $warnings]));
}
if (isset($q['exit_in_shutdown'])) {
    register_shutdown_function(function (): void {
        echo $_GET['exit_in_shutdown'];
        exit;
    });
}
