--TEST--
fastcopy_stream(): TLS socket as destination (file -> TLS, mmap path) and as source (TLS -> file), same as stock
--SKIPIF--
<?php
if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded');
if (!extension_loaded('openssl')) die('skip openssl not loaded');
?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

// self-signed certificate for the local server
$key = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1']);
$csr = openssl_csr_new(['commonName' => '127.0.0.1'], $key, ['digest_alg' => 'sha256']);
$cert = openssl_csr_sign($csr, null, $key, 1, ['digest_alg' => 'sha256']);
openssl_x509_export($cert, $certPem);
openssl_pkey_export($key, $keyPem);
$pem = fc_tmp('cert') . '.pem';
file_put_contents($pem, $certPem . $keyPem);

$data = fc_bytes(1500000, 41);
$srcPath = fc_file_with($data);

// child: TLS client that either receives everything (prints length and md5) or sends a file
$client = <<<'PHP'
[, $mode, $addr, $file] = $argv;
$ctx = stream_context_create(['ssl' => ['verify_peer' => false, 'verify_peer_name' => false]]);
$c = stream_socket_client("tls://$addr", $errno, $errstr, 10, STREAM_CLIENT_CONNECT, $ctx);
if (!$c) { echo "connect failed: $errstr"; exit(1); }
if ($mode === 'recv') {
    $got = stream_get_contents($c);
    echo strlen($got), ' ', md5($got);
} else {
    fwrite($c, file_get_contents($file));
    // wait for the server to close first: closing with unread TLS records
    // (session tickets) would reset the connection under the server
    stream_get_contents($c);
    fclose($c);
    echo 'sent';
}
PHP;

function tls_session(string $mode, callable $work): string
{
    global $pem, $client, $srcPath;
    $ctx = stream_context_create(['ssl' => ['local_cert' => $pem, 'allow_self_signed' => true]]);
    $srv = stream_socket_server('tls://127.0.0.1:0', $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $ctx);
    $addr = stream_socket_get_name($srv, false);
    $p = fc_spawn(array_merge(fc_php_child($client), [$mode, $addr, $srcPath]), [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w']], $pipes);
    $conn = stream_socket_accept($srv, 10);
    fclose($srv);
    $res = $work($conn);
    fclose($conn);
    $childSays = stream_get_contents($pipes[1]);
    fclose($pipes[1]);
    proc_close($p);
    return "$res; child: $childSays";
}

foreach (['fastcopy_stream', 'stream_copy_to_stream'] as $fn) {
    // file -> TLS
    foreach ([[null, 0], [700000, 12345]] as [$len, $off]) {
        $r = tls_session('recv', function ($conn) use ($fn, $srcPath, $len, $off) {
            $in = fopen($srcPath, 'r');
            $before = fastcopy_stats();
            $ret = $fn($in, $conn, $len, $off);
            $used = fc_paths_used(fc_stats_delta($before, fastcopy_stats()));
            $out = sprintf('ret=%s src=%d dst=%d', var_export($ret, true), ftell($in), ftell($conn));
            if ($fn === 'fastcopy_stream') {
                $out .= ' paths=' . implode(',', array_keys($used));
            }
            fclose($in);
            return $out;
        });
        $n = $len ?? strlen($data) - $off;
        echo "$fn file -> tls len=", var_export($len, true), " off=$off: $r", str_ends_with($r, $n . ' ' . md5(substr($data, $off, $n))) ? ' OK' : ' WRONG', "\n";
    }
    // TLS -> file (after a read-ahead; bounded by length since the peer keeps the session open)
    $dst = fc_tmp('from-tls');
    $r = tls_session('send', function ($conn) use ($fn, $dst, $data) {
        $head = fc_readahead($conn, ['exact', 100]);
        $out = fopen($dst, 'w');
        fwrite($out, $head);
        $ret = $fn($conn, $out, strlen($data) - 100);
        $res = sprintf('ret=%s src=%d dst=%d', var_export($ret, true), ftell($conn), ftell($out));
        fclose($out);
        return $res;
    });
    echo "$fn tls -> file: $r", file_get_contents($dst) === $data ? ' OK' : ' WRONG', "\n";
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECTF--
fastcopy_stream file -> tls len=NULL off=0: ret=1500000 src=1500000 dst=1500000 paths=mmap; child: 1500000 %s OK
fastcopy_stream file -> tls len=700000 off=12345: ret=700000 src=712345 dst=700000 paths=mmap; child: 700000 %s OK
fastcopy_stream tls -> file: ret=1499900 src=1500000 dst=1500000; child: sent OK
stream_copy_to_stream file -> tls len=NULL off=0: ret=1500000 src=1500000 dst=1500000; child: 1500000 %s OK
stream_copy_to_stream file -> tls len=700000 off=12345: ret=700000 src=712345 dst=700000; child: 700000 %s OK
stream_copy_to_stream tls -> file: ret=1499900 src=1500000 dst=1500000; child: sent OK
