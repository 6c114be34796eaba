--TEST--
fastcopy_stream(): STDOUT and php://stdout destinations in a child php whose stdout is a pipe, a file or a socket
--SKIPIF--
<?php
if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded');
if (!function_exists('proc_open')) die('skip no proc_open');
?>
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

$data = fc_bytes(400000, 31);
$srcFile = fc_file_with($data);

// The child copies with $fn from $srcKind to $dstKind (its stdout) and reports on stderr.
$child = <<<'PHP'
[, $fn, $srcKind, $dstKind, $path, $len, $off, $ra] = $argv;
if (!function_exists($fn)) { fwrite(STDERR, "no $fn in child\n"); exit(1); }
$src = match ($srcKind) {
    'file' => fopen($path, 'r'),
    'stdin' => STDIN,
    'php://stdin' => fopen('php://stdin', 'r'),
    'memory' => (function ($p) { $m = fopen('php://memory', 'w+'); fwrite($m, file_get_contents($p)); rewind($m); return $m; })($path),
};
$dst = $dstKind === 'STDOUT' ? STDOUT : fopen('php://stdout', 'w');
$ahead = $ra > 0 ? strlen(fread($src, (int)$ra)) : 0;
$r = $fn($src, $dst, $len === '' ? null : (int)$len, (int)$off);
fflush($dst);
fwrite(STDERR, json_encode([$r, $ahead, ftell($src), ftell($dst)]));
PHP;

function run_child(string $fn, string $srcKind, string $dstKind, string $stdoutKind, string $len, int $off, int $ra): array
{
    global $child, $srcFile;
    $cmd = array_merge(fc_php_child($child), ['--', $fn, $srcKind, $dstKind, $srcFile, $len, (string)$off, (string)$ra]);
    $outFile = fc_tmp('child-out');
    $errFile = fc_tmp('child-err');
    $spec = [0 => ['file', '/dev/null', 'r'], 2 => ['file', $errFile, 'w']];
    if ($srcKind === 'stdin' || $srcKind === 'php://stdin') {
        $spec[0] = ['pipe', 'r'];
    }
    $sock = null;
    if ($stdoutKind === 'file') {
        $spec[1] = ['file', $outFile, 'w'];
    } elseif ($stdoutKind === 'pipe') {
        $spec[1] = ['pipe', 'w'];
    } else {
        [$mine, $theirs] = fc_socket_pair('pair');
        $spec[1] = $theirs;
    }
    $p = fc_spawn($cmd, $spec, $pipes);
    if (isset($theirs)) {
        fclose($theirs);
    }
    if (isset($pipes[0])) {
        // feed stdin from a writer child-free loop: small pieces while reading stdout
        stream_set_blocking($pipes[0], false);
    }
    $in = $GLOBALS['data'];
    $out = '';
    $reader = $stdoutKind === 'pipe' ? $pipes[1] : ($stdoutKind === 'socket' ? $mine : null);
    if ($reader) {
        stream_set_blocking($reader, false);
    }
    while (true) {
        $r = $reader ? [$reader] : [];
        $w = (isset($pipes[0]) && is_resource($pipes[0])) ? [$pipes[0]] : [];
        if (!$r && !$w) {
            break;
        }
        $e = null;
        if (stream_select($r, $w, $e, 10) === 0) {
            $out .= '<timeout>';
            break;
        }
        foreach ($w as $x) {
            $n = @fwrite($x, $in);
            $in = $n ? (string)substr($in, $n) : '';
            if ($in === '') {
                fclose($pipes[0]);
            }
        }
        foreach ($r as $x) {
            $chunk = fread($x, 65536);
            if ($chunk === '' && feof($x)) {
                fclose($x);
                $reader = null;
            } else {
                $out .= $chunk;
            }
        }
    }
    proc_close($p);
    if ($stdoutKind === 'file') {
        $out = file_get_contents($outFile);
    }
    $rep = json_decode(file_get_contents($errFile), true) ?? file_get_contents($errFile);
    return [$rep, $out];
}

$cases = [
    ['file', 'STDOUT', 'pipe', '', 0, 0],
    ['file', 'STDOUT', 'file', '', 0, 0],
    ['file', 'STDOUT', 'socket', '', 0, 0],
    ['file', 'php://stdout', 'pipe', '100000', 12345, 0],
    ['file', 'php://stdout', 'file', '', 0, 1000],
    ['file', 'php://stdout', 'socket', '-1', 7, 0],
    ['stdin', 'STDOUT', 'pipe', '', 0, 0],
    ['stdin', 'STDOUT', 'file', '300000', 0, 10],
    ['php://stdin', 'php://stdout', 'socket', '', 0, 1],
    ['memory', 'STDOUT', 'pipe', '', 0, 0],
    ['memory', 'php://stdout', 'file', '5', 399998, 0],
];
foreach ($cases as [$srcKind, $dstKind, $stdoutKind, $len, $off, $ra]) {
    [$fRep, $fOut] = run_child('fastcopy_stream', $srcKind, $dstKind, $stdoutKind, $len, $off, $ra);
    [$sRep, $sOut] = run_child('stream_copy_to_stream', $srcKind, $dstKind, $stdoutKind, $len, $off, $ra);
    $start = $off > 0 ? $off : $ra;
    $n = $len === '' || (int)$len < 0 ? strlen($data) - $start : min((int)$len, strlen($data) - $start);
    printf("%s -> %s (stdout is a %s) len=%s off=%d ra=%d: %s, bytes %s, %s\n",
        $srcKind, $dstKind, $stdoutKind, $len === '' ? 'null' : $len, $off, $ra,
        json_encode($fRep),
        $fOut === substr($data, $start, $n) ? 'ok' : 'WRONG (' . strlen($fOut) . ')',
        $fRep === $sRep && $fOut === $sOut ? 'same as stock' : 'stock differs: ' . json_encode($sRep));
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
file -> STDOUT (stdout is a pipe) len=null off=0 ra=0: [400000,0,400000,399999], bytes ok, same as stock
file -> STDOUT (stdout is a file) len=null off=0 ra=0: [400000,0,400000,400000], bytes ok, same as stock
file -> STDOUT (stdout is a socket) len=null off=0 ra=0: [400000,0,400000,400000], bytes ok, same as stock
file -> php://stdout (stdout is a pipe) len=100000 off=12345 ra=0: [100000,0,112345,99999], bytes ok, same as stock
file -> php://stdout (stdout is a file) len=null off=0 ra=1000: [399000,1000,400000,399000], bytes ok, same as stock
file -> php://stdout (stdout is a socket) len=-1 off=7 ra=0: [399993,0,400000,399993], bytes ok, same as stock
stdin -> STDOUT (stdout is a pipe) len=null off=0 ra=0: [400000,0,399999,399999], bytes ok, same as stock
stdin -> STDOUT (stdout is a file) len=300000 off=0 ra=10: [300000,10,300009,300000], bytes ok, same as stock
php://stdin -> php://stdout (stdout is a socket) len=null off=0 ra=1: [399999,1,399999,399999], bytes ok, same as stock
memory -> STDOUT (stdout is a pipe) len=null off=0 ra=0: [400000,0,400000,399999], bytes ok, same as stock
memory -> php://stdout (stdout is a file) len=5 off=399998 ra=0: [2,0,400000,2], bytes ok, same as stock
