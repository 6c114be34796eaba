--TEST--
fastcopy_stream(): copying a file onto itself opened for append copies the original bytes once, like stock (no endless growth)
--SKIPIF--
<?php
if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded');
if (!function_exists('posix_setrlimit')) die('skip posix_setrlimit needed as a safety net');
?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

// Safety net: an engine that chases its own output must fail fast, not fill the disk.
if (function_exists('pcntl_signal')) {
    pcntl_signal(SIGXFSZ, SIG_IGN);
}
function fsize_limit(int $bytes): void
{
    posix_setrlimit(POSIX_RLIMIT_FSIZE, $bytes, POSIX_RLIMIT_INFINITY);
}

function self_append(string $fn, string $data, ?array $ra, ?int $len, int $off): array
{
    $p = fc_file_with($data, 'self');
    $in = fopen($p, 'r');
    $out = fopen($p, 'a');
    if ($ra) {
        fc_readahead($in, $ra);
    }
    $diag = [];
    set_error_handler(function ($no, $msg) use (&$diag) { $diag[] = fc_normalise_msg($msg); return true; });
    $ret = $fn($in, $out, $len, $off);
    restore_error_handler();
    $res = [$ret, ftell($in), ftell($out)];
    fclose($in);
    fclose($out);
    clearstatcache();
    $content = file_get_contents($p);
    return [$res, strlen($content), md5($content), $diag];
}

// Only cases where stock terminates: stock maps the source once (position a
// multiple of the page size) or is bounded by the length; from any other position
// without a length stock itself chases its own output.
$data = fc_bytes(1000000, 2);
$page = fc_page_size();
foreach ([
    ['whole file', null, null, 0],
    ['after read-ahead, length 5000', ['fread', 10], 5000, 0],
    ['length 300000', null, 300000, 0],
    ['offset one page', null, null, $page],
    ['tiny file', null, null, 0],
] as [$label, $ra, $len, $off]) {
    $d = $label === 'tiny file' ? 'abc' : $data;
    fsize_limit($label === 'tiny file' ? 4096 : 4 << 20);
    $fast = self_append('fastcopy_stream', $d, $ra, $len, $off);
    $stock = self_append('stream_copy_to_stream', $d, $ra, $len, $off);
    // with an offset, counted from it, so that the line reads the same whatever the page size
    printf("%s: ret=%s size=%s %s\n", $label,
        $off && is_int($fast[0][0]) ? ($fast[0][0] + $off) . '-offset' : var_export($fast[0][0], true),
        $off ? ($fast[1] + $off) . '-offset' : $fast[1],
        $fast === $stock ? 'same as stock' : 'DIFFERS: fastcopy ' . json_encode($fast) . ' stock ' . json_encode($stock));
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
whole file: ret=1000000 size=2000000 same as stock
after read-ahead, length 5000: ret=5000 size=1005000 same as stock
length 300000: ret=300000 size=1300000 same as stock
offset one page: ret=1000000-offset size=2000000-offset same as stock
tiny file: ret=3 size=6 same as stock
