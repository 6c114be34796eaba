--TEST--
fastcopy_stream(): signals arriving mid-copy (EINTR, with and without SA_RESTART) do not interrupt the copy: all bytes arrive
--SKIPIF--
<?php
if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded');
if (!extension_loaded('pcntl')) die('skip pcntl not loaded');
?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

pcntl_async_signals(true);
$signals = 0;

// A slow reader: takes 32 KiB at a time, pausing, and signals its parent every few reads.
$reader = <<<'PHP'
[, $ppid, $out] = $argv;
$f = fopen($out, 'w');
$n = 0;
while (true) {
    $c = fread(STDIN, 32768);
    if ($c === '' || $c === false) {
        if (feof(STDIN)) break;
        continue;
    }
    fwrite($f, $c);
    if (++$n % 2 === 0) {
        function_exists('posix_kill') ? posix_kill((int)$ppid, SIGUSR1) : exec('kill -USR1 ' . (int)$ppid);
    }
    usleep(1000);
}
fclose($f);
PHP;

$size = 1 << 20;
$data = fc_bytes($size, 12);
$cases = [
    ['file', 'pipe', ''],          // sendfile
    ['file', 'pair', ''],          // sendfile to a socket
    ['pipe', 'pipe', ''],          // splice
    ['tcp', 'pipe', ''],           // splice from a socket
    ['memory', 'pipe', ''],        // buffered
    ['file', 'pipe', 'copy_file_range,sendfile,splice,mmap'], // buffered from a file
];
foreach ([false, true] as $restart) {
    pcntl_signal(SIGUSR1, function () use (&$signals) { $signals++; }, $restart);
    foreach ($cases as [$srcKind, $dstKind, $disable]) {
        ini_set('fastcopy.disable', $disable);
        $signals = 0;
        $src = fc_make_source($srcKind, $data, false);
        $out = fc_tmp('received');
        if ($dstKind === 'pipe') {
            $p = fc_spawn(array_merge(fc_php_child($reader), [(string)getmypid(), $out]), [0 => ['pipe', 'r']], $pipes);
            $dst = $pipes[0];
        } else {
            [$dst, $theirs] = fc_socket_pair($dstKind);
            $p = fc_spawn(array_merge(fc_php_child($reader), [(string)getmypid(), $out]), [0 => $theirs], $pipes);
            fclose($theirs);
        }
        $diag = [];
        set_error_handler(function ($no, $msg) use (&$diag) { $diag[] = $msg; return true; });
        $ret = fastcopy_stream($src->stream, $dst);
        restore_error_handler();
        $during = $signals;
        if ($dstKind !== 'pipe') {
            stream_socket_shutdown($dst, STREAM_SHUT_WR);
        }
        fclose($dst);
        proc_close($p);
        $src->close();
        printf("%s -> %s%s, SA_RESTART=%s: ret=%s all_bytes=%s signals_during_copy=%s diag=%s\n",
            $srcKind, $dstKind, $disable ? ' (buffered)' : '', $restart ? 'on' : 'off',
            var_export($ret, true), var_export(file_get_contents($out) === $data, true),
            var_export($during > 0, true), json_encode($diag));
    }
}
ini_set('fastcopy.disable', '');
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
file -> pipe, SA_RESTART=off: ret=1048576 all_bytes=true signals_during_copy=true diag=[]
file -> pair, SA_RESTART=off: ret=1048576 all_bytes=true signals_during_copy=true diag=[]
pipe -> pipe, SA_RESTART=off: ret=1048576 all_bytes=true signals_during_copy=true diag=[]
tcp -> pipe, SA_RESTART=off: ret=1048576 all_bytes=true signals_during_copy=true diag=[]
memory -> pipe, SA_RESTART=off: ret=1048576 all_bytes=true signals_during_copy=true diag=[]
file -> pipe (buffered), SA_RESTART=off: ret=1048576 all_bytes=true signals_during_copy=true diag=[]
file -> pipe, SA_RESTART=on: ret=1048576 all_bytes=true signals_during_copy=true diag=[]
file -> pair, SA_RESTART=on: ret=1048576 all_bytes=true signals_during_copy=true diag=[]
pipe -> pipe, SA_RESTART=on: ret=1048576 all_bytes=true signals_during_copy=true diag=[]
tcp -> pipe, SA_RESTART=on: ret=1048576 all_bytes=true signals_during_copy=true diag=[]
memory -> pipe, SA_RESTART=on: ret=1048576 all_bytes=true signals_during_copy=true diag=[]
file -> pipe (buffered), SA_RESTART=on: ret=1048576 all_bytes=true signals_during_copy=true diag=[]
