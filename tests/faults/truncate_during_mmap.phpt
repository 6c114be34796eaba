--TEST--
fastcopy_stream(): source file truncated while the mmap path copies it: no SIGBUS death, count <= original size
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
memory_limit=1G
fastcopy.disable=copy_file_range,sendfile,splice
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

function patterned(int $mb): string
{
    $block = fc_bytes(1 << 20, 99);
    $out = '';
    for ($i = 0; $i < $mb; $i++) {
        $out .= substr_replace($block, sprintf('[MB %04d]', $i), 0, 9);
    }
    return $out;
}

/* Bytes delivered must be the original data, possibly followed by zero-fill
 * for pages that vanished while in flight (the engine maps zero pages over a
 * truncated window rather than dying of SIGBUS); never anything else, and
 * never less than the original data up to the new size. */
/* Up to the new size every byte is the file's own; past it each byte is either the
 * file's byte at that offset (read before the cut) or a zero (the page was gone).
 * Not "prefix, then zeros": memcpy may copy the end of a block before its middle. */
function prefix_then_zeros(string $got, string $orig, int $newSize): bool
{
    $keep = min(strlen($got), $newSize);
    if (strlen($got) > strlen($orig) || substr($got, 0, $keep) !== substr($orig, 0, $keep)) {
        return false;
    }
    for ($at = $keep; $at < strlen($got); $at += 65536) {
        $a = substr($got, $at, 65536);
        $b = substr($orig, $at, strlen($a));
        if ($a === $b || strspn($a, "\0") === strlen($a)) {
            continue;
        }
        for ($i = 0; $i < strlen($a); $i++) {
            if ($a[$i] !== $b[$i] && $a[$i] !== "\0") {
                return false;
            }
        }
    }
    return true;
}

$size = 24 << 20;
$orig = patterned(24);

/* 1. deterministic: the destination (a userspace stream) truncates the source on its first write */
FcMemWrapper::register();
foreach ([0, 5 << 20, 1] as $newSize) {
    $path = fc_file_with($orig);
    $in = fopen($path, 'r');
    $out = fopen('fcmem://trunc', 'w');
    FcMemWrapper::$onWrite = function () use ($path, $newSize) {
        static $done = false;
        if (!$done) {
            $done = true;
            $h = fopen($path, 'r+');
            ftruncate($h, $newSize);
            fclose($h);
        }
    };
    $before = fastcopy_stats();
    $ret = fastcopy_stream($in, $out);
    $d = fc_stats_delta($before, fastcopy_stats());
    FcMemWrapper::$onWrite = null;
    $pos = ftell($in);
    fclose($out);
    fclose($in);
    $got = FcMemWrapper::$files['trunc'];
    printf("truncate to %d on first write: int=%s le_size=%s bytes_are_prefix=%s ftell_src=ret:%s mmap_used=%s\n",
        $newSize, var_export(is_int($ret), true), var_export($ret <= $size, true),
        var_export(strlen($got) === $ret && prefix_then_zeros($got, $orig, $newSize), true),
        var_export($pos === $ret, true), var_export(($d['mmap']['bytes'] ?? 0) > 0, true));
}

/* 2. racing: a child process truncates the file while we copy it into php://memory */
$child = <<<'PHP'
$path = $argv[1];
$newSize = (int)$argv[2];
fgets(STDIN);                 // "go"
usleep(500);
$h = fopen($path, 'r+');
ftruncate($h, $newSize);
fclose($h);
echo "truncated\n";
PHP;
$bigOrig = patterned(64);
foreach ([0, (10 << 20) + 5, 1] as $newSize) {
    $path = fc_file_with($bigOrig);
    $p = fc_spawn(array_merge(fc_php_child($child), [$path, (string)$newSize]), [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
    $in = fopen($path, 'r');
    $mem = fopen('php://memory', 'w+');
    fwrite($pipes[0], "go\n");
    fflush($pipes[0]);
    $ret = fastcopy_stream($in, $mem);
    $done = trim(stream_get_contents($pipes[1]));
    fclose($pipes[0]);
    fclose($pipes[1]);
    proc_close($p);
    rewind($mem);
    $got = stream_get_contents($mem);
    printf("child truncates to %d: child=%s int=%s le_size=%s length_matches=%s ftell_src=ret:%s\n", $newSize, $done,
        var_export(is_int($ret), true), var_export(is_int($ret) && $ret <= strlen($bigOrig), true),
        var_export(strlen($got) === $ret, true), var_export(ftell($in) === $ret, true));
    echo "  original bytes (then possibly zero-fill): ", var_export(prefix_then_zeros($got, $bigOrig, $newSize), true), "\n";
    fclose($in);
    fclose($mem);
}
echo "alive\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
truncate to 0 on first write: int=true le_size=true bytes_are_prefix=true ftell_src=ret:true mmap_used=true
truncate to 5242880 on first write: int=true le_size=true bytes_are_prefix=true ftell_src=ret:true mmap_used=true
truncate to 1 on first write: int=true le_size=true bytes_are_prefix=true ftell_src=ret:true mmap_used=true
child truncates to 0: child=truncated int=true le_size=true length_matches=true ftell_src=ret:true
  original bytes (then possibly zero-fill): true
child truncates to 10485765: child=truncated int=true le_size=true length_matches=true ftell_src=ret:true
  original bytes (then possibly zero-fill): true
child truncates to 1: child=truncated int=true le_size=true length_matches=true ftell_src=ret:true
  original bytes (then possibly zero-fill): true
alive
