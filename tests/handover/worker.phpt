--TEST--
The hand-over frees the worker: behind nginx with Nextcloud's fastcgi_max_temp_file_size 0 and a pool of one worker, a request made while a slow client downloads 64 MiB is answered before half of it has arrived (stock's waits until the socket buffers take the rest), and strace shows the worker sending none of the file (stock's writes all of it); 1 GiB with FASTCOPY_TEST_BIG=1, 64 MiB otherwise
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/handover.inc';
fcho_skipif(['nginx']);
if (fcint_tool('strace') === null && getenv('CI') !== 'true') {
    die('skip strace needed');
}
?>
--FILE--
<?php
require __DIR__ . '/handover.inc';

$tmp = fcint_tmpdir('handover-worker');
$data = fcho_data($tmp);
// a sparse file: the worker that sends it reads holes, the one that hands it over nothing
$size = getenv('FASTCOPY_TEST_BIG') === '1' ? 1 << 30 : 64 << 20;
$f = fopen("$data/large.bin", 'wb');
ftruncate($f, $size);
fclose($f);
$servers = fcho_nginx_stacks($tmp, $data);

foreach ($servers as $mode => $srv) {
    // What the worker writes to its socket while it sends the file.
    $pid = fchttp_get_json($srv->url('stats.php'))['pid'];
    $log = "$tmp/strace-$mode.log";
    $st = proc_open([fcint_tool('strace'), '-q', '-f', '-y', '-p', (string) $pid, '-e',
        'trace=write,writev,sendto,sendmsg,sendfile,splice', '-o', $log],
        [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
    for ($i = 0; $i < 100 && !is_file($log); $i++) {
        usleep(20000);
    }
    usleep(200000);
    $r = fchttp_get($srv->url('handover.php?' . http_build_query(['f64' => base64_encode('large.bin')])));
    fchttp_get_json($srv->url('stats.php'));
    proc_terminate($st, SIGINT);
    proc_close($st);
    $calls = $bytes = 0;
    foreach (file($log) ?: [] as $l) {
        if (preg_match('/^(?:\d+ +)?(write|writev|sendto|sendmsg|sendfile|splice)\(.*\)\s+= (\d+)/', $l, $m)) {
            $calls++;
            $bytes += (int) $m[2];
        }
    }
    $sent = $mode === 'stock' ? $bytes >= $size : $bytes < 65536 && $calls < 20;
    echo "$mode: the client got ", $r['bytes'] === $size ? 'the file' : "{$r['bytes']} bytes", ', the worker ',
        $mode === 'stock' ? ($sent ? 'wrote all of it' : "wrote $bytes bytes in $calls calls")
            : ($sent ? 'wrote none of it' : "wrote $bytes bytes in $calls calls"), "\n";
}

// A slow client holds stock's only worker until the socket buffers between them take
// the rest of the file; the hand-over's is free at once. The client's file says how
// far the download was when a request made meanwhile was answered.
$f = fopen("$data/slow.bin", 'wb');
ftruncate($f, 64 << 20);
fclose($f);
foreach ($servers as $mode => $srv) {
    $got = "$tmp/slow-$mode.bin";
    $slow = proc_open([fcint_tool('curl'), '-s', '-o', $got, '--limit-rate', '8M',
        $srv->url('handover.php?' . http_build_query(['f64' => base64_encode('slow.bin')]))],
        [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
    usleep(300000);
    $other = fchttp_get_json($srv->url('stats.php'));
    clearstatcache();
    $far = @filesize($got);
    proc_close($slow);
    echo "$mode: a request made meanwhile was answered ", $other === null ? 'never'
        : ($far < (32 << 20) ? 'before half the download' : 'near its end'), "\n";
}
foreach ($servers as $srv) {
    $srv->stop();
}
fcint_done();
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
override: on
stock: the client got the file, the worker wrote all of it
override: the client got the file, the worker wrote none of it
stock: a request made meanwhile was answered near its end
override: a request made meanwhile was answered before half the download
done
