--TEST--
fastcopy_stream(): peer hang-up with SIGPIPE at its default action: notice + false, the process lives (stock would be killed)
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

pcntl_signal(SIGPIPE, SIG_DFL);
$data = fc_bytes(3 << 20, 8);

function report(string $label, $ret, array $diag, int $size): void
{
    $norm = array_map(fn($m) => preg_replace('/ of \d+ bytes/', ' of N bytes', $m), $diag);
    printf("%s: %s; %s\n", $label,
        $ret === false || (is_int($ret) && $ret < $size) ? 'false/short' : var_export($ret, true),
        json_encode(array_values(array_unique($norm))));
}

function copy_capture($src, $dst): array
{
    $diag = [];
    set_error_handler(function ($no, $msg) use (&$diag) {
        $diag[] = ($no === E_NOTICE ? 'Notice: ' : "E$no: ") . $msg;
        return true;
    });
    $ret = fastcopy_stream($src, $dst);
    restore_error_handler();
    return [$ret, $diag];
}

/* sockets whose peer has gone */
foreach ([['file', ''], ['file', 'copy_file_range,sendfile,splice,mmap'], ['memory', ''], ['pipe', '']] as [$srcKind, $disable]) {
    ini_set('fastcopy.disable', $disable);
    $src = fc_make_source($srcKind, $data, false);
    [$dst, $peer] = fc_socket_pair('pair');
    fclose($peer);
    [$ret, $diag] = copy_capture($src->stream, $dst);
    report("$srcKind -> closed socket" . ($disable ? ' (buffered)' : ''), $ret, $diag, strlen($data));
    fclose($dst);
    $src->close();
}
ini_set('fastcopy.disable', '');

/* pipes whose reader has exited */
foreach (['file', 'memory', 'pipe'] as $srcKind) {
    $src = fc_make_source($srcKind, $data, false);
    $p = fc_spawn(['true'], [0 => ['pipe', 'r']], $pipes);
    while (proc_get_status($p)['running']) {
        usleep(1000);
    }
    [$ret, $diag] = copy_capture($src->stream, $pipes[0]);
    report("$srcKind -> pipe without reader", $ret, $diag, strlen($data));
    fclose($pipes[0]);
    proc_close($p);
    $src->close();
}

/* a reader that takes 1000 bytes and hangs up mid-copy */
foreach (['file', 'memory'] as $srcKind) {
    $src = fc_make_source($srcKind, $data, false);
    $p = fc_spawn(['head', '-c', '1000'], [0 => ['pipe', 'r'], 1 => ['file', '/dev/null', 'w']], $pipes);
    [$ret, $diag] = copy_capture($src->stream, $pipes[0]);
    report("$srcKind -> pipe whose reader leaves after 1000 bytes", $ret, $diag, strlen($data));
    fclose($pipes[0]);
    proc_close($p);
    $src->close();
}

var_dump(pcntl_signal_get_handler(SIGPIPE) === SIG_DFL);
echo "still alive\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
file -> closed socket: false/short; ["Notice: fastcopy_stream(): Send of N bytes failed with errno=32 Broken pipe"]
file -> closed socket (buffered): false/short; ["Notice: fastcopy_stream(): Send of N bytes failed with errno=32 Broken pipe"]
memory -> closed socket: false/short; ["Notice: fastcopy_stream(): Send of N bytes failed with errno=32 Broken pipe"]
pipe -> closed socket: false/short; ["Notice: fastcopy_stream(): Send of N bytes failed with errno=32 Broken pipe"]
file -> pipe without reader: false/short; ["Notice: fastcopy_stream(): Write of N bytes failed with errno=32 Broken pipe"]
memory -> pipe without reader: false/short; ["Notice: fastcopy_stream(): Write of N bytes failed with errno=32 Broken pipe"]
pipe -> pipe without reader: false/short; ["Notice: fastcopy_stream(): Write of N bytes failed with errno=32 Broken pipe"]
file -> pipe whose reader leaves after 1000 bytes: false/short; ["Notice: fastcopy_stream(): Write of N bytes failed with errno=32 Broken pipe"]
memory -> pipe whose reader leaves after 1000 bytes: false/short; ["Notice: fastcopy_stream(): Write of N bytes failed with errno=32 Broken pipe"]
bool(true)
still alive
