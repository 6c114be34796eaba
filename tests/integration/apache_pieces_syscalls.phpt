--TEST--
Integration: what sabre/http's 4 MiB loop costs on the apache path, as strace counts the Apache child's syscalls: the same 256 MiB file served by Apache itself (EnableSendfile On), by readfile() and as 64 stream_copy_to_stream() pieces of 4 MiB (Content-Length set, as sabre/http sets it), in the same run: besides the network calls that follow the client's pace, each piece costs at most 4 syscalls over readfile()'s; every answer whole
--SKIPIF--
<?php require __DIR__ . '/apache.inc'; fcap_skipif(['strace']); ?>
--FILE--
<?php
require __DIR__ . '/apache.inc';

$f = fcint_data_file(256 << 20);
$pieces = intdiv($f['size'], 4 << 20);
$tmp = fcint_tmpdir('ap-pieces');
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['blob' => $f['path']]]);
symlink($f['path'], "$docroot/static.bin");
$servers = fcap_servers($docroot, $tmp, ['conf' => ['EnableSendfile On']]);
$want = ['status' => 200, 'bytes' => $f['size'], 'sha256' => $f['sha256']];

// what this test counts is the override's path: no override, no count (it fails)
$srv = $servers['override'];
// The file in the page cache and the child past its first request.
fchttp_check_response('warm-up', fchttp_get($srv->url('send.php?fn=readfile')), $want);
$counts = [];
$urls = ['static' => 'static.bin', 'readfile' => 'send.php?fn=readfile', 'pieces' => 'send.php?fn=pieces'];
foreach ($urls as $name => $path) {
    $s0 = fchttp_get_json($srv->url('stats.php'));
    $counts[$name] = fcap_count_syscalls($srv, [], function () use ($srv, $path, $name, $want): void {
        fchttp_check_response($name, fchttp_get($srv->url($path)), $want);
    });
    $s1 = fchttp_get_json($srv->url('stats.php'));
    if ($name !== 'static') {
        fchttp_assert_path('override', $name, $s0, $s1, 'apache', $f['size'] - 1, false);
    }
    echo "$name: ok\n";
}
// sendfile, poll and writev follow the client's pace (how much each sendfile
// moves), and Apache's own static sendfile of the same file varied from 164 to 394
// syscalls between runs here: what a piece costs is counted without them.
$net = fn (array $c) => ($c['sendfile'] ?? 0) + ($c['poll'] ?? 0) + ($c['writev'] ?? 0);
$work = fn (string $n) => $counts[$n]['total'] - $net($counts[$n]);
$summary = implode(', ', array_map(fn (string $n) => sprintf('%s %d syscalls (%d besides sendfile, poll, writev)',
    $n, $counts[$n]['total'], $work($n)), array_keys($counts)));
// Each piece is one pass through Apache's filters: besides its sendfile, PHP's
// cast of the stream (lseek, fstat) and the lseek that leaves the descriptor at
// the stream's position; the request, its size and the signal mask are not read
// again.
if ($work('pieces') - $work('readfile') > 4 * $pieces) {
    fcint_fail("the pieces cost more than 4 syscalls each over readfile()'s: $summary\n" . json_encode($counts));
}
if (getenv('FCINT_VERBOSE') === '1') {
    echo "$summary\n";
}
fcint_done();
?>
--EXPECT--
override: on
static: ok
readfile: ok
pieces: ok
done
