--TEST--
Request shapes through nginx + PHP-FPM, stock vs fastcopy.override: POST octet-stream, urlencoded and multipart ($_FILES), enable_post_data_reading=0, over post_max_size, chunked bodies, bodies made of FastCGI records read none, part or all with the next request on the same kept connection
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/../integration/harness.inc';
if (getenv('USE_ZEND_ALLOC') === '0' && getenv('ZEND_DONT_UNLOAD_MODULES') === '1') {
    die('skip under valgrind (run-tests.php -m): see fpm_valgrind.phpt');
}
fcint_skipif(['nginx', 'fpm', 'curl', 'dav']);
?>
--FILE--
<?php
require __DIR__ . '/fpm.inc';

/** A body file of FastCGI records (headers a reader must never parse), $n times over, then $tail odd bytes. */
function records_body(int $n, int $tail): string
{
    $p = fc_tmpdir() . "/records-$n-$tail";
    $rec = fn (int $type, int $id, string $payload, int $pad = 0): string =>
        pack('CCnnCx', 1, $type, $id, strlen($payload), $pad) . $payload . str_repeat("\0", $pad);
    $one = $rec(1, 1, pack('nCx5', 1, 1))                          // BEGIN_REQUEST, keep the connection
        . $rec(4, 1, "\x0f\x03SCRIPT_FILENAMEx.php\x0e\x03REQUEST_METHODGET") . $rec(4, 1, '')
        . $rec(5, 1, str_repeat('s', 1000), 7) . $rec(5, 1, '')    // STDIN, then its end
        . $rec(3, 1, pack('NCx3', 0, 0))                           // END_REQUEST
        . $rec(2, 1, '')                                           // ABORT_REQUEST
        . pack('CCnnCx', 1, 5, 1, 65535, 255);                     // a header saying 64 KiB follow
    file_put_contents($p, str_repeat($one, $n) . substr(str_repeat($one, 2), 0, $tail));
    return $p;
}

/** A body file of $size bytes of a urlencoded form. */
function form_body(int $size): string
{
    $p = fc_tmpdir() . "/form-$size";
    $s = '';
    for ($i = 0; strlen($s) < $size; $i++) {
        $s .= ($i ? '&' : '') . "f$i=" . rawurlencode(fc_bytes(97, $i));
    }
    file_put_contents($p, substr($s, 0, $size));
    return $p;
}

/** A multipart/form-data body file (boundary B0undary) of [field, filename or null, type, file or value]. */
function multipart_body(string $name, array $parts): string
{
    $p = fc_tmpdir() . "/multipart-$name";
    $f = fopen($p, 'w');
    foreach ($parts as [$field, $filename, $type, $content]) {
        fwrite($f, "--B0undary\r\nContent-Disposition: form-data; name=\"$field\""
            . ($filename === null ? '' : "; filename=\"$filename\"") . "\r\n"
            . ($type === null ? '' : "Content-Type: $type\r\n") . "\r\n");
        $filename === null ? fwrite($f, $content) : stream_copy_to_stream(fopen($content, 'r'), $f);
        fwrite($f, "\r\n");
    }
    fwrite($f, "--B0undary--\r\n");
    fclose($f);
    return $p;
}

$all = [['copy', null, 0, 'file'], ['rewind'], ['get']];
$ini = ['post_max_size=1M', 'upload_max_filesize=256K'];
$stacks = [
    'buffering on' => ['listen' => 'tcp', 'keepalive' => 1, 'ini' => $ini, 'nginx' => ['client_max_body_size 0;']],
    'buffering off' => ['keepalive' => 1, 'ini' => $ini,
        'nginx' => ['client_max_body_size 0;', 'fastcgi_request_buffering off;']],
    'enable_post_data_reading=0' => ['keepalive' => 1, 'ini' => [...$ini, 'enable_post_data_reading=0'],
        'nginx' => ['client_max_body_size 0;', 'fastcgi_request_buffering off;']],
    // the body handed over as the file nginx stored (REQUEST_BODY_FILE)
    'body file' => ['keepalive' => 1, 'ini' => $ini, 'nginx' => ['client_max_body_size 0;', ...fcup_body_file_nginx()]],
    'body file, enable_post_data_reading=0' => ['listen' => 'tcp', 'keepalive' => 1,
        'ini' => [...$ini, 'enable_post_data_reading=0'], 'nginx' => ['client_max_body_size 0;', ...fcup_body_file_nginx()]],
];
$files = [fcup_body(0), fcup_body(1), fcup_body(100003), fcup_body(300001)];
foreach ($stacks as $stack => $options) {
    $tmp = fcint_tmpdir('requests-' . preg_replace('/\W+/', '-', $stack));
    $servers = fcfpm_stacks(fcup_fpm_docroot($tmp), $tmp, $options);
    $reading = !str_contains($stack, 'enable_post_data_reading');
    $edge = str_contains($stack, 'body file') ? 'body_file' : 'fastcgi_input';
    $post = ['method' => 'POST'];

    // POST bodies PHP reads at startup (unless told not to): a copy then comes from the spool
    foreach ([1, 16385, 100003] as $size) {
        fcup_fpm_compare($servers, "$stack, POST octet-stream, $size bytes", $all, fcup_body($size), null,
            FCUP_FPM_PATHS, false, $reading && $size >= 16384 ? 'spool' : null, $post);
    }
    foreach ([20000, 100003] as $size) {
        fcup_fpm_compare($servers, "$stack, POST urlencoded, $size bytes", $all, form_body($size), null,
            FCUP_FPM_PATHS, false, null, $post + ['type' => 'application/x-www-form-urlencoded']);
    }
    // $_FILES: names, types, sizes, errors (one over upload_max_filesize) and each tmp file's bytes
    $form = [['a', 'empty.bin', 'application/octet-stream', $files[0]], ['b', 'one.txt', 'application/x-test', $files[1]],
        ['c[]', 'big.bin', 'application/octet-stream', $files[2]], ['c[]', 'over.bin', 'application/octet-stream', $files[3]],
        ['v', null, null, 'value'], ['d', 'no-type.bin', null, $files[2]]];
    $multipart = $post + ['type' => 'multipart/form-data; boundary=B0undary'];
    fcup_fpm_compare($servers, "$stack, POST multipart", $all, multipart_body('form', $form), null, FCUP_FPM_PATHS,
        false, null, $multipart);
    // over post_max_size: stock reads no body at startup
    $big = fcup_body((2 << 20) + 4099);
    fcup_fpm_compare($servers, "$stack, POST octet-stream over post_max_size", $all, $big, null, FCUP_FPM_PATHS,
        false, null, $post);
    fcup_fpm_compare($servers, "$stack, POST multipart over post_max_size", $all,
        multipart_body('over', [...$form, ['e', 'e.bin', null, $big]]), null, FCUP_FPM_PATHS, false, null, $multipart);

    // chunked: with request buffering (and a body file) nginx passes CONTENT_LENGTH, without it none (stock reads
    // nothing); then PHP-FPM may close the connection while nginx still sends the body, and
    // the client sees a 502 or a 200 as that race goes, stock or not: the scripts' reports compare
    foreach ([1, 100003, (2 << 20) + 4099] as $size) {
        $chunked = ['headers' => ['Transfer-Encoding: chunked']]
            + (str_contains($stack, ' on') || str_contains($stack, 'body file') ? [] : ['status' => null]);
        fcup_fpm_compare($servers, "$stack, chunked PUT, $size bytes, copy", $all, fcup_body($size), null,
            FCUP_FPM_PATHS, false, null, $chunked);
        fcup_fpm_compare($servers, "$stack, chunked PUT, $size bytes, Nextcloud", [['nextcloud', 'file']],
            fcup_body($size), null, FCUP_FPM_PATHS, false, null, $chunked);
    }

    // Bodies made of FastCGI records, read in part or not at all: what happens to the rest is
    // PHP-FPM's (8.2.36 drains it and keeps the connection; 8.4.24 closes it, and nginx, still
    // sending, may answer 502), and the next request is served as stock serves it: on the
    // connection the first one left exactly when stock's is.
    $next = fcup_body(5000);
    foreach ([[1, 77], [100, 1001]] as [$n, $tail]) {
        $body = records_body($n, $tail);
        $size = filesize($body);
        foreach (['none' => [['leave']], 'part' => [['fread', 100], ['copy', 1000, 0, 'temp'], ['leave']],
            'part into a file' => [['copy', 70001, 0, 'file'], ['leave']], 'all' => $all] as $what => $ops) {
            $first = fcup_fpm_compare($servers, "$stack, FastCGI records, $size bytes, read $what", $ops, $body, null,
                FCUP_FPM_PATHS, false, $what === 'part into a file' && $size > 70001 ? $edge : null,
                $what === 'all' ? [] : ['status' => null]);
            $then = fcup_fpm_compare($servers, "$stack, FastCGI records, $size bytes, read $what, next request", $all,
                $next);
            $kept = [];
            foreach ($then as $mode => $run) {
                if ($run['conn'] === []) {
                    fcint_fail("$stack, $size bytes, read $what [$mode]: the worker reported no connection");
                }
                $kept[$mode] = $run['conn'] === ($first[$mode]['conn'] ?? null);
            }
            if ($what === 'all' && !$kept['stock']) {
                fcint_fail("$stack, $size bytes, read all [stock]: a body read whole did not keep the connection");
            }
            if (isset($kept['override']) && $kept['override'] !== $kept['stock']) {
                fcint_fail("$stack, $size bytes, read $what: the next request came on the first one's connection "
                    . json_encode($kept));
            }
        }
    }
    foreach ($servers as $srv) {
        $srv->stop();
    }
}
fcint_done();
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
override: on
buffering on, POST octet-stream, 1 bytes: same
buffering on, POST octet-stream, 16385 bytes: same
buffering on, POST octet-stream, 100003 bytes: same
buffering on, POST urlencoded, 20000 bytes: same
buffering on, POST urlencoded, 100003 bytes: same
buffering on, POST multipart: same
buffering on, POST octet-stream over post_max_size: same
buffering on, POST multipart over post_max_size: same
buffering on, chunked PUT, 1 bytes, copy: same
buffering on, chunked PUT, 1 bytes, Nextcloud: same
buffering on, chunked PUT, 100003 bytes, copy: same
buffering on, chunked PUT, 100003 bytes, Nextcloud: same
buffering on, chunked PUT, 2101251 bytes, copy: same
buffering on, chunked PUT, 2101251 bytes, Nextcloud: same
buffering on, FastCGI records, 1205 bytes, read none: same
buffering on, FastCGI records, 1205 bytes, read none, next request: same
buffering on, FastCGI records, 1205 bytes, read part: same
buffering on, FastCGI records, 1205 bytes, read part, next request: same
buffering on, FastCGI records, 1205 bytes, read part into a file: same
buffering on, FastCGI records, 1205 bytes, read part into a file, next request: same
buffering on, FastCGI records, 1205 bytes, read all: same
buffering on, FastCGI records, 1205 bytes, read all, next request: same
buffering on, FastCGI records, 113801 bytes, read none: same
buffering on, FastCGI records, 113801 bytes, read none, next request: same
buffering on, FastCGI records, 113801 bytes, read part: same
buffering on, FastCGI records, 113801 bytes, read part, next request: same
buffering on, FastCGI records, 113801 bytes, read part into a file: same
buffering on, FastCGI records, 113801 bytes, read part into a file, next request: same
buffering on, FastCGI records, 113801 bytes, read all: same
buffering on, FastCGI records, 113801 bytes, read all, next request: same
override: on
buffering off, POST octet-stream, 1 bytes: same
buffering off, POST octet-stream, 16385 bytes: same
buffering off, POST octet-stream, 100003 bytes: same
buffering off, POST urlencoded, 20000 bytes: same
buffering off, POST urlencoded, 100003 bytes: same
buffering off, POST multipart: same
buffering off, POST octet-stream over post_max_size: same
buffering off, POST multipart over post_max_size: same
buffering off, chunked PUT, 1 bytes, copy: same
buffering off, chunked PUT, 1 bytes, Nextcloud: same
buffering off, chunked PUT, 100003 bytes, copy: same
buffering off, chunked PUT, 100003 bytes, Nextcloud: same
buffering off, chunked PUT, 2101251 bytes, copy: same
buffering off, chunked PUT, 2101251 bytes, Nextcloud: same
buffering off, FastCGI records, 1205 bytes, read none: same
buffering off, FastCGI records, 1205 bytes, read none, next request: same
buffering off, FastCGI records, 1205 bytes, read part: same
buffering off, FastCGI records, 1205 bytes, read part, next request: same
buffering off, FastCGI records, 1205 bytes, read part into a file: same
buffering off, FastCGI records, 1205 bytes, read part into a file, next request: same
buffering off, FastCGI records, 1205 bytes, read all: same
buffering off, FastCGI records, 1205 bytes, read all, next request: same
buffering off, FastCGI records, 113801 bytes, read none: same
buffering off, FastCGI records, 113801 bytes, read none, next request: same
buffering off, FastCGI records, 113801 bytes, read part: same
buffering off, FastCGI records, 113801 bytes, read part, next request: same
buffering off, FastCGI records, 113801 bytes, read part into a file: same
buffering off, FastCGI records, 113801 bytes, read part into a file, next request: same
buffering off, FastCGI records, 113801 bytes, read all: same
buffering off, FastCGI records, 113801 bytes, read all, next request: same
override: on
enable_post_data_reading=0, POST octet-stream, 1 bytes: same
enable_post_data_reading=0, POST octet-stream, 16385 bytes: same
enable_post_data_reading=0, POST octet-stream, 100003 bytes: same
enable_post_data_reading=0, POST urlencoded, 20000 bytes: same
enable_post_data_reading=0, POST urlencoded, 100003 bytes: same
enable_post_data_reading=0, POST multipart: same
enable_post_data_reading=0, POST octet-stream over post_max_size: same
enable_post_data_reading=0, POST multipart over post_max_size: same
enable_post_data_reading=0, chunked PUT, 1 bytes, copy: same
enable_post_data_reading=0, chunked PUT, 1 bytes, Nextcloud: same
enable_post_data_reading=0, chunked PUT, 100003 bytes, copy: same
enable_post_data_reading=0, chunked PUT, 100003 bytes, Nextcloud: same
enable_post_data_reading=0, chunked PUT, 2101251 bytes, copy: same
enable_post_data_reading=0, chunked PUT, 2101251 bytes, Nextcloud: same
enable_post_data_reading=0, FastCGI records, 1205 bytes, read none: same
enable_post_data_reading=0, FastCGI records, 1205 bytes, read none, next request: same
enable_post_data_reading=0, FastCGI records, 1205 bytes, read part: same
enable_post_data_reading=0, FastCGI records, 1205 bytes, read part, next request: same
enable_post_data_reading=0, FastCGI records, 1205 bytes, read part into a file: same
enable_post_data_reading=0, FastCGI records, 1205 bytes, read part into a file, next request: same
enable_post_data_reading=0, FastCGI records, 1205 bytes, read all: same
enable_post_data_reading=0, FastCGI records, 1205 bytes, read all, next request: same
enable_post_data_reading=0, FastCGI records, 113801 bytes, read none: same
enable_post_data_reading=0, FastCGI records, 113801 bytes, read none, next request: same
enable_post_data_reading=0, FastCGI records, 113801 bytes, read part: same
enable_post_data_reading=0, FastCGI records, 113801 bytes, read part, next request: same
enable_post_data_reading=0, FastCGI records, 113801 bytes, read part into a file: same
enable_post_data_reading=0, FastCGI records, 113801 bytes, read part into a file, next request: same
enable_post_data_reading=0, FastCGI records, 113801 bytes, read all: same
enable_post_data_reading=0, FastCGI records, 113801 bytes, read all, next request: same
override: on
body file, POST octet-stream, 1 bytes: same
body file, POST octet-stream, 16385 bytes: same
body file, POST octet-stream, 100003 bytes: same
body file, POST urlencoded, 20000 bytes: same
body file, POST urlencoded, 100003 bytes: same
body file, POST multipart: same
body file, POST octet-stream over post_max_size: same
body file, POST multipart over post_max_size: same
body file, chunked PUT, 1 bytes, copy: same
body file, chunked PUT, 1 bytes, Nextcloud: same
body file, chunked PUT, 100003 bytes, copy: same
body file, chunked PUT, 100003 bytes, Nextcloud: same
body file, chunked PUT, 2101251 bytes, copy: same
body file, chunked PUT, 2101251 bytes, Nextcloud: same
body file, FastCGI records, 1205 bytes, read none: same
body file, FastCGI records, 1205 bytes, read none, next request: same
body file, FastCGI records, 1205 bytes, read part: same
body file, FastCGI records, 1205 bytes, read part, next request: same
body file, FastCGI records, 1205 bytes, read part into a file: same
body file, FastCGI records, 1205 bytes, read part into a file, next request: same
body file, FastCGI records, 1205 bytes, read all: same
body file, FastCGI records, 1205 bytes, read all, next request: same
body file, FastCGI records, 113801 bytes, read none: same
body file, FastCGI records, 113801 bytes, read none, next request: same
body file, FastCGI records, 113801 bytes, read part: same
body file, FastCGI records, 113801 bytes, read part, next request: same
body file, FastCGI records, 113801 bytes, read part into a file: same
body file, FastCGI records, 113801 bytes, read part into a file, next request: same
body file, FastCGI records, 113801 bytes, read all: same
body file, FastCGI records, 113801 bytes, read all, next request: same
override: on
body file, enable_post_data_reading=0, POST octet-stream, 1 bytes: same
body file, enable_post_data_reading=0, POST octet-stream, 16385 bytes: same
body file, enable_post_data_reading=0, POST octet-stream, 100003 bytes: same
body file, enable_post_data_reading=0, POST urlencoded, 20000 bytes: same
body file, enable_post_data_reading=0, POST urlencoded, 100003 bytes: same
body file, enable_post_data_reading=0, POST multipart: same
body file, enable_post_data_reading=0, POST octet-stream over post_max_size: same
body file, enable_post_data_reading=0, POST multipart over post_max_size: same
body file, enable_post_data_reading=0, chunked PUT, 1 bytes, copy: same
body file, enable_post_data_reading=0, chunked PUT, 1 bytes, Nextcloud: same
body file, enable_post_data_reading=0, chunked PUT, 100003 bytes, copy: same
body file, enable_post_data_reading=0, chunked PUT, 100003 bytes, Nextcloud: same
body file, enable_post_data_reading=0, chunked PUT, 2101251 bytes, copy: same
body file, enable_post_data_reading=0, chunked PUT, 2101251 bytes, Nextcloud: same
body file, enable_post_data_reading=0, FastCGI records, 1205 bytes, read none: same
body file, enable_post_data_reading=0, FastCGI records, 1205 bytes, read none, next request: same
body file, enable_post_data_reading=0, FastCGI records, 1205 bytes, read part: same
body file, enable_post_data_reading=0, FastCGI records, 1205 bytes, read part, next request: same
body file, enable_post_data_reading=0, FastCGI records, 1205 bytes, read part into a file: same
body file, enable_post_data_reading=0, FastCGI records, 1205 bytes, read part into a file, next request: same
body file, enable_post_data_reading=0, FastCGI records, 1205 bytes, read all: same
body file, enable_post_data_reading=0, FastCGI records, 1205 bytes, read all, next request: same
body file, enable_post_data_reading=0, FastCGI records, 113801 bytes, read none: same
body file, enable_post_data_reading=0, FastCGI records, 113801 bytes, read none, next request: same
body file, enable_post_data_reading=0, FastCGI records, 113801 bytes, read part: same
body file, enable_post_data_reading=0, FastCGI records, 113801 bytes, read part, next request: same
body file, enable_post_data_reading=0, FastCGI records, 113801 bytes, read part into a file: same
body file, enable_post_data_reading=0, FastCGI records, 113801 bytes, read part into a file, next request: same
body file, enable_post_data_reading=0, FastCGI records, 113801 bytes, read all: same
body file, enable_post_data_reading=0, FastCGI records, 113801 bytes, read all, next request: same
done
