--TEST--
fastcopy_stream(): >4 GiB sparse source, offsets and ranges past 2^32 on every path (file, socket, memory, buffered)
--SKIPIF--
<?php
if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded');
if (PHP_INT_SIZE < 8) die('skip 64-bit only');
?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

const G4 = 4294967296;
$size = 5 * 1024 * 1024 * 1024 + 77; // 5 GiB + 77, sparse
$path = fc_tmp('sparse');
$h = fopen($path, 'w+');
if (!ftruncate($h, $size)) {
    die("cannot create sparse file\n");
}
$markers = [
    G4 - 3 => 'STRADDLE-2^32',
    G4 + 12345 => str_repeat('marker-after-4GiB:', 10),
    G4 + 1000000 => fc_bytes(70000, 4),
    $size - 100 => 'near-the-end',
];
foreach ($markers as $off => $m) {
    fseek($h, $off);
    fwrite($h, $m);
}
fclose($h);
clearstatcache();
var_dump(filesize($path) === $size);

// reference reader independent of both copy functions
function slice(string $path, int $off, int $len): string
{
    $h = fopen($path, 'r');
    fseek($h, $off);
    $s = $len > 0 ? fread($h, $len) : '';
    fclose($h);
    return $s;
}

function run(string $fn, string $path, string $dstKind, ?int $len, int $off, string $disable): array
{
    ini_set('fastcopy.disable', $disable);
    $in = fopen($path, 'r');
    $dst = fc_make_dest($dstKind);
    $ret = $fn($in, $dst->stream, $len, $off);
    $pos = [ftell($in), ftell($dst->stream)];
    $out = $dst->collect();
    $dst->close();
    fclose($in);
    ini_set('fastcopy.disable', '');
    return [$ret, $pos, $out];
}

$ranges = [
    ['straddling 2^32', 20, G4 - 10],
    ['past 2^32', 1000, G4 + 12000],
    ['70 KB at 4 GiB + 1 MB', 70000, G4 + 1000000],
    ['to the end', null, $size - 150],
    ['beyond EOF', null, 6 * G4],
];
$targets = [['file', ''], ['pair', ''], ['memory', ''], ['file', 'copy_file_range,sendfile,splice,mmap']];
foreach ($ranges as [$label, $len, $off]) {
    $expect = $off >= $size ? '' : slice($path, $off, $len ?? ($size - $off));
    foreach ($targets as [$dstKind, $disable]) {
        [$ret, $pos, $out] = run('fastcopy_stream', $path, $dstKind, $len, $off, $disable);
        [$sret, $spos, $sout] = run('stream_copy_to_stream', $path, $dstKind, $len, $off, '');
        printf("%s -> %s%s: ret=%s src_pos-2^32=%d dst_pos=%d bytes=%s stock=%s\n", $label, $dstKind,
            $disable ? ' (buffered)' : '', var_export($ret, true), $pos[0] - G4, $pos[1],
            $out === $expect ? 'ok' : 'WRONG', [$sret, $spos, $sout] === [$ret, $pos, $out] ? 'same' : 'DIFFERENT');
    }
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
bool(true)
straddling 2^32 -> file: ret=20 src_pos-2^32=10 dst_pos=20 bytes=ok stock=same
straddling 2^32 -> pair: ret=20 src_pos-2^32=10 dst_pos=20 bytes=ok stock=same
straddling 2^32 -> memory: ret=20 src_pos-2^32=10 dst_pos=20 bytes=ok stock=same
straddling 2^32 -> file (buffered): ret=20 src_pos-2^32=10 dst_pos=20 bytes=ok stock=same
past 2^32 -> file: ret=1000 src_pos-2^32=13000 dst_pos=1000 bytes=ok stock=same
past 2^32 -> pair: ret=1000 src_pos-2^32=13000 dst_pos=1000 bytes=ok stock=same
past 2^32 -> memory: ret=1000 src_pos-2^32=13000 dst_pos=1000 bytes=ok stock=same
past 2^32 -> file (buffered): ret=1000 src_pos-2^32=13000 dst_pos=1000 bytes=ok stock=same
70 KB at 4 GiB + 1 MB -> file: ret=70000 src_pos-2^32=1070000 dst_pos=70000 bytes=ok stock=same
70 KB at 4 GiB + 1 MB -> pair: ret=70000 src_pos-2^32=1070000 dst_pos=70000 bytes=ok stock=same
70 KB at 4 GiB + 1 MB -> memory: ret=70000 src_pos-2^32=1070000 dst_pos=70000 bytes=ok stock=same
70 KB at 4 GiB + 1 MB -> file (buffered): ret=70000 src_pos-2^32=1070000 dst_pos=70000 bytes=ok stock=same
to the end -> file: ret=150 src_pos-2^32=1073741901 dst_pos=150 bytes=ok stock=same
to the end -> pair: ret=150 src_pos-2^32=1073741901 dst_pos=150 bytes=ok stock=same
to the end -> memory: ret=150 src_pos-2^32=1073741901 dst_pos=150 bytes=ok stock=same
to the end -> file (buffered): ret=150 src_pos-2^32=1073741901 dst_pos=150 bytes=ok stock=same
beyond EOF -> file: ret=0 src_pos-2^32=21474836480 dst_pos=0 bytes=ok stock=same
beyond EOF -> pair: ret=0 src_pos-2^32=21474836480 dst_pos=0 bytes=ok stock=same
beyond EOF -> memory: ret=0 src_pos-2^32=21474836480 dst_pos=0 bytes=ok stock=same
beyond EOF -> file (buffered): ret=0 src_pos-2^32=21474836480 dst_pos=0 bytes=ok stock=same
