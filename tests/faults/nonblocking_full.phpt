--TEST--
fastcopy_stream(): non-blocking destination that fills up returns the count written so far, loses nothing, and a further call continues (intentional difference from stock, php-src GH-11753)
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
fastcopy.disable=
default_socket_timeout=5
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

$size = 6 << 20;
$data = fc_bytes($size, 77);

/* returns [dst stream, drain(): string (non-blocking read of what arrived), close()] */
function nb_dest(string $kind): array
{
    if ($kind === 'pipe') {
        // cat's stdin is the destination; nobody reads cat's stdout until we drain
        $p = fc_spawn(['cat'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        [$w, $r] = [$pipes[0], $pipes[1]];
        $close = function () use ($w, $r, $p) {
            fclose($w);
            stream_get_contents($r);
            fclose($r);
            proc_close($p);
        };
    } else {
        [$w, $r] = fc_socket_pair($kind);
        $close = function () use ($w, $r) {
            fclose($w);
            fclose($r);
        };
    }
    stream_set_blocking($w, false);
    stream_set_blocking($r, false);
    $drain = function () use ($r): string {
        $got = '';
        // give a pipe-through child a moment to move what it has
        for ($idle = 0; $idle < 3;) {
            $c = fread($r, 1 << 20);
            if ($c === '' || $c === false) {
                $idle++;
                usleep(2000);
                continue;
            }
            $idle = 0;
            $got .= $c;
        }
        return $got;
    };
    return [$w, $drain, $close];
}

$scenarios = [
    ['file', 'pair', ''],
    ['file', 'tcp', ''],
    ['file', 'unix', 'sendfile'],              // forces the next path
    ['file', 'pair', 'copy_file_range,sendfile,splice,mmap'], // buffered
    ['memory', 'pair', ''],
    ['user', 'unix', ''],
    ['rot13', 'tcp', ''],
    ['pipe', 'pair', ''],                      // splice
    ['file', 'pipe', ''],
    ['pipe', 'pipe', ''],
];
foreach ($scenarios as [$srcKind, $dstKind, $disable]) {
    ini_set('fastcopy.disable', $disable);
    $src = fc_make_source($srcKind, $data, false);
    [$dst, $drain, $close] = nb_dest($dstKind);
    $pipeBase = $srcKind === 'pipe' ? 1 : 0; // a pipe's PHP position starts at -1

    $diag = [];
    set_error_handler(function ($no, $msg) use (&$diag) { $diag[] = $msg; return true; });
    $first = fastcopy_stream($src->stream, $dst);
    $firstPos = [ftell($src->stream) + $pipeBase, ftell($dst) + ($dstKind === 'pipe' ? 1 : 0)];
    $received = $drain();
    $calls = 1;
    $total = is_int($first) ? $first : 0;
    $allInts = is_int($first);
    while ($total < $size && $calls < 2000) {
        $r = fastcopy_stream($src->stream, $dst);
        $calls++;
        $allInts = $allInts && is_int($r);
        if (!is_int($r)) {
            break;
        }
        $total += $r;
        $received .= $drain();
        if ($r === 0 && strlen($received) === $size) {
            break;
        }
    }
    restore_error_handler();
    $received .= $drain();
    printf("%s -> non-blocking %s%s: first=%s partial=%s pos_ok=%s, then %s: all_int=%s total=%d received=%s src_pos=%d diag=%s\n",
        $srcKind, $dstKind, $disable ? " (disable=$disable)" : '',
        is_int($first) ? 'int' : var_export($first, true),
        var_export(is_int($first) && $first > 0 && $first < $size, true),
        var_export($firstPos === [$first, $first], true),
        $calls >= 2 ? "more calls" : "no more calls", var_export($allInts, true), $total,
        $received === $data ? 'all bytes in order' : ($received === str_rot13($data) && $srcKind === 'rot13' ? 'ROT13' : 'WRONG (' . strlen($received) . ' bytes)'),
        ftell($src->stream) + $pipeBase, json_encode($diag));
    $close();
    $src->close();
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
file -> non-blocking pair: first=int partial=true pos_ok=true, then more calls: all_int=true total=6291456 received=all bytes in order src_pos=6291456 diag=[]
file -> non-blocking tcp: first=int partial=true pos_ok=true, then more calls: all_int=true total=6291456 received=all bytes in order src_pos=6291456 diag=[]
file -> non-blocking unix (disable=sendfile): first=int partial=true pos_ok=true, then more calls: all_int=true total=6291456 received=all bytes in order src_pos=6291456 diag=[]
file -> non-blocking pair (disable=copy_file_range,sendfile,splice,mmap): first=int partial=true pos_ok=true, then more calls: all_int=true total=6291456 received=all bytes in order src_pos=6291456 diag=[]
memory -> non-blocking pair: first=int partial=true pos_ok=true, then more calls: all_int=true total=6291456 received=all bytes in order src_pos=6291456 diag=[]
user -> non-blocking unix: first=int partial=true pos_ok=true, then more calls: all_int=true total=6291456 received=all bytes in order src_pos=6291456 diag=[]
rot13 -> non-blocking tcp: first=int partial=true pos_ok=true, then more calls: all_int=true total=6291456 received=ROT13 src_pos=6291456 diag=[]
pipe -> non-blocking pair: first=int partial=true pos_ok=true, then more calls: all_int=true total=6291456 received=all bytes in order src_pos=6291456 diag=[]
file -> non-blocking pipe: first=int partial=true pos_ok=true, then more calls: all_int=true total=6291456 received=all bytes in order src_pos=6291456 diag=[]
pipe -> non-blocking pipe: first=int partial=true pos_ok=true, then more calls: all_int=true total=6291456 received=all bytes in order src_pos=6291456 diag=[]
