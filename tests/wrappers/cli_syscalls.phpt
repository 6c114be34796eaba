--TEST--
wrappers: a wrapped file into a pipe or a socket costs the syscalls the unwrapped file costs (strace of a child PHP)
--DESCRIPTION--
A child PHP copies 16 MiB from a file into its stdout, which is a pipe or a unix
socket, under `strace -f -c -e trace=read,write,sendto,sendmsg,sendfile,splice,copy_file_range`:
the file plain and behind icewind/streams 0.7.7's CallbackWrapper (close callback
only), with fastcopy_stream(), and the wrapped file with stock
stream_copy_to_stream() for scale; a run copying 0 bytes gives the syscalls of
everything else (start-up, autoloading), which are taken off. The wrapped copy must
use sendfile or splice, make no more other syscalls than the unwrapped one (plus a
few; the number of sendfile calls into a socket follows the reader's speed), and
cost less than a quarter of stock's 8 KiB read() + write() pairs.
Not under valgrind, which follows child processes but not strace's ptrace.
--SKIPIF--
<?php
require __DIR__ . '/../inc/wrappers.inc';
fcw_skipif();
if (PHP_OS_FAMILY !== 'Linux') die('skip Linux only');
if (getenv('USE_ZEND_ALLOC') === '0' && !getenv('SKIP_ASAN')) die('skip strace cannot run under valgrind');
if (getenv('CI') !== 'true' && trim((string)shell_exec('command -v strace')) === '') die('skip strace not installed (apt-get install -y strace)');
?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/wrappers.inc';

$size = 16 << 20;
$src = fc_file_with(fc_bytes($size, 5));
$child = fc_php_child('require ' . var_export(realpath(__DIR__ . '/../inc/wrappers.inc'), true) . ';
    [, $fn, $wrap, $path, $len] = $argv;
    $in = fopen($path, "rb");
    if ($wrap === "wrapped") {
        $in = Icewind\Streams\CallbackWrapper::wrap($in, null, null, function () {});
    }
    $r = $fn($in, STDOUT, (int)$len);
    fwrite(STDERR, "copied " . var_export($r, true));');

/** Runs the child under strace; returns [syscalls by name, bytes received, its stderr]. */
function traced(array $child, string $into, string $fn, string $wrap, string $src, int $len): array
{
    $log = fc_tmp('strace');
    $err = fc_tmp('stderr');
    if ($into === 'pipe') {
        $out = ['pipe', 'w'];
    } else {
        [$out, $ours] = fc_socket_pair('pair');
    }
    // Under a sanitized PHP, LeakSanitizer cannot run in a traced process: the
    // child's other checks stay on.
    $asan = trim(getenv('ASAN_OPTIONS') . ':detect_leaks=0', ':');
    $cmd = array_merge(['env', "ASAN_OPTIONS=$asan", 'strace', '-f', '-c', '-o', $log, '-e',
        'trace=read,write,sendto,sendmsg,sendfile,splice,copy_file_range'], $child, [$fn, $wrap, $src, (string)$len]);
    if ($into === 'pipe') {
        // wc drains the pipe as fast as the kernel fills it, so the count of
        // sendfile/splice calls does not depend on how quickly this PHP reads
        // (a sanitized one is many times slower)
        $cmd = array_merge(['sh', '-c', '"$@" | wc -c', 'sh'], $cmd);
    }
    $p = fc_spawn($cmd, [0 => ['file', '/dev/null', 'r'], 1 => $out, 2 => ['file', $err, 'w']], $pipes);
    if ($into === 'pipe') {
        $bytes = (int)trim((string)stream_get_contents($pipes[1]));
        fclose($pipes[1]);
    } else {
        fclose($out);
        $bytes = 0;
        while (!feof($ours)) {
            $bytes += strlen((string)fread($ours, 1 << 20));
        }
        fclose($ours);
    }
    proc_close($p);
    $calls = [];
    foreach (file($log, FILE_IGNORE_NEW_LINES) as $line) {
        if (preg_match('/^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)\s*$/', $line, $m) && $m[2] !== 'total') {
            $calls[$m[2]] = (int)$m[1];
        }
    }
    return [$calls, $bytes, file_get_contents($err)];
}

foreach (['pipe', 'socket'] as $into) {
    $runs = [];
    foreach (['start-up' => ['fastcopy_stream', 'wrapped', 0], 'plain' => ['fastcopy_stream', 'plain', $size],
                 'wrapped' => ['fastcopy_stream', 'wrapped', $size], 'stock' => ['stream_copy_to_stream', 'wrapped', $size]]
             as $name => [$fn, $wrap, $len]) {
        [$calls, $bytes, $said] = traced($child, $into, $fn, $wrap, $src, $len);
        if ($bytes !== $len || $said !== "copied $len") {
            echo "$into, $name: received $bytes bytes, the child said: $said\n";
        }
        $runs[$name] = $calls;
    }
    // How many sendfile/splice calls a copy into a socket takes depends on how fast
    // this PHP drains the other end (a loaded machine gives 64 to 200 for 16 MiB), so
    // the wrapper's cost is what it adds besides them: the other syscalls.
    $kernel = fn(string $name) => ($runs[$name]['sendfile'] ?? 0) + ($runs[$name]['splice'] ?? 0);
    $other = fn(string $name) => array_sum($runs[$name]) - $kernel($name) - array_sum($runs['start-up']);
    $total = fn(string $name) => array_sum($runs[$name]) - array_sum($runs['start-up']);
    printf("%s: wrapped %s, %s the unwrapped file's other syscalls, %s stock's\n", $into,
        $kernel('wrapped') > 0 ? 'on sendfile/splice' : 'NOT on sendfile/splice ' . json_encode($runs['wrapped']),
        $other('wrapped') <= $other('plain') + 8 ? 'with' : 'MORE THAN (' . json_encode($runs) . ')',
        $total('wrapped') * 4 < $total('stock') ? 'a fraction of' : 'NOT A FRACTION OF (' . json_encode($runs) . ')');
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
pipe: wrapped on sendfile/splice, with the unwrapped file's other syscalls, a fraction of stock's
socket: wrapped on sendfile/splice, with the unwrapped file's other syscalls, a fraction of stock's
