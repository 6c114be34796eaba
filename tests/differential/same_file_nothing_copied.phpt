--TEST--
differential: a same-file copy that moves nothing (source at or past its end, length 0) leaves each descriptor where stock's casts leave it, so the next read and write through either stream go where stock's do - fastcopy_stream() == stream_copy_to_stream()
--DESCRIPTION--
Stock casts the source and then the destination to descriptors before asking
copy_file_range(), and each cast seeks the descriptor to its stream's position:
with nothing to copy, a second stream's descriptor stays at its own position
(which a read through an 'a+' destination shows) and an offset shared with a
php://fd duplicate at the destination's. A length of 0 returns before the casts.
After each copy the test reads through the destination, then through the source,
then writes through the destination, and compares everything with stock. A
duplicate whose destination lies inside the file is left out: there stock reads
from the destination's offset and copies bytes (docs/differences.md).
--SKIPIF--
<?php
if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded');
if (!is_dir('/proc/self/fd')) die('skip needs /proc/self/fd');
?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/same_file.inc';

function nothing_copied(string $fn, string $data, array $c): array
{
    $path = fc_file_with($data, 'same');
    if ($c['mode'] === 'same') {
        $src = $dst = fopen($path, $c['dmode']);
    } elseif ($c['mode'] === 'two') {
        $src = fopen($path, 'r');
        $dst = fopen($path, $c['dmode']);
    } else {
        $src = fopen($path, $c['dmode']);
        $dst = fopen('php://fd/' . fc_sf_fd_of(realpath($path)), $c['dmode']);
    }
    if ($src !== $dst) {
        fseek($dst, $c['d']);
    }
    fseek($src, $c['s']);
    if (!empty($c['ahead'])) {
        fread($src, $c['ahead']);
    }
    $r = ['ret' => array_key_exists('len', $c) ? $fn($src, $dst, $c['len']) : $fn($src, $dst)];
    $r['read_dst'] = fread($dst, 16);
    $r['read_src'] = $src !== $dst ? fread($src, 16) : '';
    fwrite($dst, '#');
    fflush($dst);
    $r += ['src_pos' => ftell($src), 'dst_pos' => ftell($dst)];
    fclose($src);
    if ($dst !== $src) {
        fclose($dst);
    }
    clearstatcache();
    $r['out'] = file_get_contents($path);
    unlink($path);
    return $r;
}

$fields = ['ret', 'read_dst', 'read_src', 'src_pos', 'dst_pos', 'out'];
$show = fn(array $r) => implode(', ', array_map(fn($k) => "$k " . fc_export($r[$k]), $fields));

// The cases a test reader can follow; then every combination.
foreach ([
    ['mode' => 'two', 's' => 8, 'd' => 3, 'dmode' => 'a+'],
    ['mode' => 'dup', 's' => 11, 'd' => 8, 'dmode' => 'r+'],
    ['mode' => 'dup', 's' => 2, 'd' => 5, 'dmode' => 'r+', 'len' => 0],
] as $c) {
    $fast = nothing_copied('fastcopy_stream', 'abcdefgh', $c);
    $stock = nothing_copied('stream_copy_to_stream', 'abcdefgh', $c);
    echo fc_sf_label($c, 8), "\n    fastcopy: ", $show($fast), "\n    stock: ",
        $fast === $stock ? 'the same' : $show($stock), "\n";
}

$cases = $differ = 0;
foreach (['same', 'two', 'dup'] as $mode) {
    foreach ([8, 10000] as $size) {
        $data = fc_bytes($size, 8107);
        foreach (['r+', 'c+', 'a+'] as $dmode) {
            foreach ([[$size, 0], [$size + 3, 0], [$size - 3, 7], [2, 0], [2, 1]] as [$s, $ahead]) {
                foreach ($mode === 'same' ? [0] : [0, 3, $size, $size + 4] as $d) {
                    foreach (['absent', 0, 5] as $len) {
                        $c = ['mode' => $mode, 's' => $s, 'd' => $d, 'dmode' => $dmode, 'ahead' => $ahead];
                        if ($len !== 'absent') {
                            $c['len'] = $len;
                        }
                        if (fc_sf_range($data, $c)[1] !== 0 || ($mode === 'dup' && $d < $size && $len !== 0)) {
                            continue;
                        }
                        $cases++;
                        $fast = nothing_copied('fastcopy_stream', $data, $c);
                        $stock = nothing_copied('stream_copy_to_stream', $data, $c);
                        foreach (fc_diff_results($stock, $fast, $fields) as $x) {
                            echo fc_sf_label($c, $size), ": stock vs fastcopy: $x\n";
                            $differ++;
                        }
                    }
                }
            }
        }
    }
}
echo "$cases cases, $differ differences\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
two size=8 s=8 d=3 len='absent' dmode=a+
    fastcopy: ret 0, read_dst 'defgh', read_src '', src_pos 8, dst_pos 9, out 'abcdefgh#'
    stock: the same
dup size=8 s=11 d=8 len='absent' dmode=r+
    fastcopy: ret 0, read_dst '', read_src '', src_pos 11, dst_pos 9, out 'abcdefgh#'
    stock: the same
dup size=8 s=2 d=5 len=0 dmode=r+
    fastcopy: ret 0, read_dst 'cdefgh', read_src '', src_pos 2, dst_pos 12, out 'abcdefgh#'
    stock: the same
522 cases, 0 differences
