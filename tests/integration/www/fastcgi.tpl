<?php
// What the worker sees of its pool and of the FastCGI connection that brought
// this request: for stack_options.phpt, which checks FcfpmStack's options.
header('Content-Type: application/json');
header('Cache-Control: no-store');

/*
 * The connections this process holds, from /proc: [local port, remote port]
 * of every established TCP socket among its descriptors. Under FPM that is
 * the FastCGI connection from nginx (local port: the pool's).
 */
function fcint_tcp_connections(): array
{
    $inodes = [];
    foreach (glob('/proc/self/fd/*') as $fd) {
        if (preg_match('/^socket:\[(\d+)\]$/', (string) @readlink($fd), $m)) {
            $inodes[$m[1]] = true;
        }
    }
    $conns = [];
    foreach (array_slice(file('/proc/self/net/tcp', FILE_IGNORE_NEW_LINES), 1) as $line) {
        // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
        $f = preg_split('/\s+/', trim($line));
        if ($f[3] === '01' && isset($inodes[$f[9]])) {
            $conns[] = [hexdec(explode(':', $f[1])[1]), hexdec(explode(':', $f[2])[1])];
        }
    }
    return $conns;
}

echo json_encode([
    'pid' => getmypid(),
    'memory_limit' => ini_get('memory_limit'),
    'pool_mark' => getenv('FCINT_POOL_MARK'),
    'tcp' => fcint_tcp_connections(),
]);
