--TEST--
fastcopy_stats() says what happened: ZERO only where a later path found data, a reason when the script ends inside a path (timeout, fatal error)
--DESCRIPTION--
A kernel path whose first call moves nothing hands over with ZERO, which docs/reference.md
presents as the sign of procfs-like files. At a plain end of file (an empty file,
a source already at its end, one byte into php://output) no later path finds data
either, so no ZERO is counted; a procfs file still gets its ZERO or EXDEV. A script
ended inside a path counts why: TIMED_OUT for max_execution_time, SCRIPT_ENDED for
E_USER_ERROR from an output handler (the client hang-up, CLIENT_ABORTED, is in
tests/integration).
--SKIPIF--
<?php
if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded');
if (PHP_OS_FAMILY !== 'Linux') die('skip Linux only');
?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

/** Every fallback reason in a stats delta, as "path:REASON". */
function reasons(?array $d): array
{
    $r = [];
    foreach ($d ?? [] as $path => $st) {
        foreach ($st['fallbacks'] as $reason => $n) {
            $r[] = "$path:$reason";
        }
    }
    return $r;
}

function copy_counted($in, $out, ?int $len = null): array
{
    $before = fastcopy_stats();
    $ret = fastcopy_stream($in, $out, $len);
    $d = fc_stats_delta($before, fastcopy_stats());
    return [$ret, reasons($d), fc_paths_used($d)];
}

// an empty file into a file and into a socket
$empty = fc_file_with('');
$in = fopen($empty, 'r');
$out = fopen(fc_tmp('dst'), 'w');
echo 'empty -> file: ', json_encode(copy_counted($in, $out)), "\n";
[$a, $b] = fc_socket_pair('unix');
rewind($in);
echo 'empty -> socket: ', json_encode(copy_counted($in, $a)), "\n";

// a file read to its end, then copied on
$f = fopen(fc_file_with(fc_bytes(10000, 2)), 'r');
fseek($f, 0, SEEK_END);
echo 'at end -> file: ', json_encode(copy_counted($f, $out)), "\n";
echo 'at end -> socket: ', json_encode(copy_counted($f, $a)), "\n";

// procfs still says why the kernel path handed over
$proc = fopen('/proc/version', 'r');
[$ret, $why] = copy_counted($proc, $out);
echo 'procfs -> file: ', $ret > 0 ? 'copied' : 'nothing', ', ',
    array_intersect($why, ['copy_file_range:ZERO', 'copy_file_range:EXDEV']) ? 'reason counted' : json_encode($why), "\n";

// one byte, and a few, into php://output with stdout a pipe (a child process)
foreach (['readfile', 'fpassthru', 'stream_copy_to_stream', 'fastcopy_stream'] as $fn) {
    foreach ([1, 5] as $size) {
        $src = fc_file_with(str_repeat('z', $size));
        $code = '$in = fopen(' . var_export($src, true) . ', "r"); $b = fastcopy_stats();'
            . match ($fn) {
                'readfile' => '$r = readfile(' . var_export($src, true) . ');',
                'fpassthru' => '$r = fpassthru($in);',
                default => '$o = fopen("php://output", "w"); $r = ' . $fn . '($in, $o);',
            }
            . 'fwrite(STDERR, json_encode([$r, fastcopy_stats(), $b]));';
        $p = fc_spawn(array_merge(fc_php_child($code), ['-d', 'fastcopy.override=1']),
            [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        $body = stream_get_contents($pipes[1]);
        [$r, $after, $before] = json_decode(stream_get_contents($pipes[2]), true) ?? [null, null, null];
        proc_close($p);
        $d = fc_stats_delta($before, $after);
        printf("%s %d byte(s) -> php://output: %s, returned %s, engine %d, reasons %s\n", $fn, $size,
            $body === str_repeat('z', $size) ? 'bytes ok' : 'BYTES ' . json_encode($body), json_encode($r),
            array_sum(fc_paths_used($d)), json_encode(reasons($d)));
    }
}

// ended inside a path: a userspace source that spins past max_execution_time,
// and an output handler ending the script with a fatal error under the mmap path
foreach (['timeout' => ['buffered', '-d', 'max_execution_time=1'], 'fatal' => ['mmap']] as $what => $ini) {
    $path = array_shift($ini);
    $cmd = array_merge([PHP_BINARY], fc_php_options(), $ini, [__DIR__ . '/../inc/ends_inside_path.inc', $what]);
    $p = fc_spawn($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $stdout = stream_get_contents($pipes[1]);
    $d = json_decode(stream_get_contents($pipes[2]), true);
    proc_close($p);
    printf("%s: %s, %s tried %d, reasons %s\n", $what,
        preg_match('/Fatal error: /', $stdout) ? 'fatal error' : 'NO FATAL ' . $stdout,
        $path, $d[$path]['calls'] ?? 0, json_encode(reasons($d)));
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
empty -> file: [0,[],[]]
empty -> socket: [0,[],[]]
at end -> file: [0,[],[]]
at end -> socket: [0,[],[]]
procfs -> file: copied, reason counted
readfile 1 byte(s) -> php://output: bytes ok, returned 1, engine 1, reasons []
readfile 5 byte(s) -> php://output: bytes ok, returned 5, engine 5, reasons []
fpassthru 1 byte(s) -> php://output: bytes ok, returned 1, engine 1, reasons []
fpassthru 5 byte(s) -> php://output: bytes ok, returned 5, engine 5, reasons []
stream_copy_to_stream 1 byte(s) -> php://output: bytes ok, returned 1, engine 1, reasons []
stream_copy_to_stream 5 byte(s) -> php://output: bytes ok, returned 5, engine 5, reasons []
fastcopy_stream 1 byte(s) -> php://output: bytes ok, returned 1, engine 1, reasons []
fastcopy_stream 5 byte(s) -> php://output: bytes ok, returned 5, engine 5, reasons []
timeout: fatal error, buffered tried 1, reasons ["buffered:TIMED_OUT","wrappers:UNKNOWN_CLASS"]
fatal: fatal error, mmap tried 1, reasons ["mmap:SCRIPT_ENDED"]
