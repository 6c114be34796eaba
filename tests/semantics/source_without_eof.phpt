--TEST--
fastcopy_stream(): pipe/socket sources whose writer stays open (no EOF): length-bounded, non-blocking and timed-out reads behave as stock
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

/* [reader, writer, cleanup] with 4000 bytes already written (<= PIPE_BUF: arrives at once) and the writer left open */
function open_source(string $kind): array
{
    if ($kind === 'pipe') {
        $p = fc_spawn(['cat'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        fwrite($pipes[0], str_repeat('q', 4000));
        fflush($pipes[0]);
        // wait until cat has passed the bytes on
        $r = [$pipes[1]];
        $w = $e = null;
        stream_select($r, $w, $e, 5);
        usleep(20000);
        return [$pipes[1], $pipes[0], function () use ($pipes, $p) { fclose($pipes[0]); fclose($pipes[1]); proc_close($p); }];
    }
    [$r, $w] = fc_socket_pair($kind);
    fwrite($w, str_repeat('q', 4000));
    return [$r, $w, function () use ($r, $w) { fclose($r); fclose($w); }];
}

function run(string $fn, string $kind, string $mode, string $dstKind): array
{
    [$src, $writer, $cleanup] = open_source($kind);
    $dst = fc_make_dest($dstKind);
    $len = null;
    if ($mode === 'nonblock') {
        stream_set_blocking($src, false);
    } elseif ($mode === 'timeout') {
        stream_set_timeout($src, 0, 300000);
    } elseif ($mode === 'len=4000') {
        $len = 4000;
    } elseif ($mode === 'len=3000') {
        $len = 3000;
    }
    $diag = [];
    set_error_handler(function ($no, $msg) use (&$diag) { $diag[] = fc_normalise_msg($msg); return true; });
    $ret = $fn($src, $dst->stream, $len);
    restore_error_handler();
    $meta = stream_get_meta_data($src);
    $res = [$ret, ftell($src), ftell($dst->stream), $meta['timed_out'], strlen($dst->collect()), $diag];
    $dst->close();
    $cleanup();
    return $res;
}

foreach (['pair', 'tcp', 'unix', 'pipe'] as $kind) {
    foreach (['len=4000', 'len=3000', 'nonblock'] as $mode) {
        foreach (['file', 'memory', 'pipe'] as $dstKind) {
            $f = run('fastcopy_stream', $kind, $mode, $dstKind);
            $s = run('stream_copy_to_stream', $kind, $mode, $dstKind);
            echo "$kind $mode -> $dstKind: ", json_encode($f), $f === $s ? '' : ' STOCK: ' . json_encode($s), "\n";
        }
    }
}
// A read timeout on the source, after what had arrived is delivered: the copy ends
// as this PHP's own timed-out read does (docs/differences.md, 6): false
// where fread() gives false (8.2, 8.4: the read reports failure), the bytes copied
// where it gives ''. Which one, asked here of a socket pair, and stock run beside.
[$r, $w] = fc_socket_pair('pair');
stream_set_timeout($r, 0, 1);
$timedOutRead = fread($r, 10);
fclose($r);
fclose($w);
foreach (['pair', 'tcp'] as $kind) {
    foreach (['file', 'memory'] as $dstKind) {
        $f = run('fastcopy_stream', $kind, 'timeout', $dstKind);
        $s = run('stream_copy_to_stream', $kind, 'timeout', $dstKind);
        $ret = array_shift($f);
        $want = $timedOutRead === false ? false : $f[3];
        echo "$kind timeout -> $dstKind: ", $ret === $want ? 'ret as the read ends' : 'ret ' . json_encode($ret)
            . ' where the read gives ' . json_encode($timedOutRead), ', ', json_encode($f),
            [$ret, ...$f] === $s ? '' : ' STOCK: ' . json_encode($s), "\n";
    }
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
pair len=4000 -> file: [4000,4000,4000,false,4000,[]]
pair len=4000 -> memory: [4000,4000,4000,false,4000,[]]
pair len=4000 -> pipe: [4000,4000,3999,false,4000,[]]
pair len=3000 -> file: [3000,3000,3000,false,3000,[]]
pair len=3000 -> memory: [3000,3000,3000,false,3000,[]]
pair len=3000 -> pipe: [3000,3000,2999,false,3000,[]]
pair nonblock -> file: [4000,4000,4000,false,4000,[]]
pair nonblock -> memory: [4000,4000,4000,false,4000,[]]
pair nonblock -> pipe: [4000,4000,3999,false,4000,[]]
tcp len=4000 -> file: [4000,4000,4000,false,4000,[]]
tcp len=4000 -> memory: [4000,4000,4000,false,4000,[]]
tcp len=4000 -> pipe: [4000,4000,3999,false,4000,[]]
tcp len=3000 -> file: [3000,3000,3000,false,3000,[]]
tcp len=3000 -> memory: [3000,3000,3000,false,3000,[]]
tcp len=3000 -> pipe: [3000,3000,2999,false,3000,[]]
tcp nonblock -> file: [4000,4000,4000,false,4000,[]]
tcp nonblock -> memory: [4000,4000,4000,false,4000,[]]
tcp nonblock -> pipe: [4000,4000,3999,false,4000,[]]
unix len=4000 -> file: [4000,4000,4000,false,4000,[]]
unix len=4000 -> memory: [4000,4000,4000,false,4000,[]]
unix len=4000 -> pipe: [4000,4000,3999,false,4000,[]]
unix len=3000 -> file: [3000,3000,3000,false,3000,[]]
unix len=3000 -> memory: [3000,3000,3000,false,3000,[]]
unix len=3000 -> pipe: [3000,3000,2999,false,3000,[]]
unix nonblock -> file: [4000,4000,4000,false,4000,[]]
unix nonblock -> memory: [4000,4000,4000,false,4000,[]]
unix nonblock -> pipe: [4000,4000,3999,false,4000,[]]
pipe len=4000 -> file: [4000,3999,4000,false,4000,[]]
pipe len=4000 -> memory: [4000,3999,4000,false,4000,[]]
pipe len=4000 -> pipe: [4000,3999,3999,false,4000,[]]
pipe len=3000 -> file: [3000,2999,3000,false,3000,[]]
pipe len=3000 -> memory: [3000,2999,3000,false,3000,[]]
pipe len=3000 -> pipe: [3000,2999,2999,false,3000,[]]
pipe nonblock -> file: [4000,3999,4000,false,4000,[]]
pipe nonblock -> memory: [4000,3999,4000,false,4000,[]]
pipe nonblock -> pipe: [4000,3999,3999,false,4000,[]]
pair timeout -> file: ret as the read ends, [4000,4000,true,4000,[]]
pair timeout -> memory: ret as the read ends, [4000,4000,true,4000,[]]
tcp timeout -> file: ret as the read ends, [4000,4000,true,4000,[]]
tcp timeout -> memory: ret as the read ends, [4000,4000,true,4000,[]]
