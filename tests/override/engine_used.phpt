--TEST--
fastcopy.override=1: the four built-ins run on the engine (fastcopy_stats() moves), and only they
--EXTENSIONS--
fastcopy
--INI--
fastcopy.override=1
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

function moved(callable $f): int
{
    $before = array_sum(array_column(fastcopy_stats(), 'bytes'));
    $f();
    return array_sum(array_column(fastcopy_stats(), 'bytes')) - $before;
}

$dir = fc_tmpdir();
$src = "$dir/src.bin";
file_put_contents($src, fc_bytes(3 * 1024 * 1024 + 17, 11));

var_dump(moved(function () use ($src, $dir) {
    stream_copy_to_stream(fopen($src, 'r'), fopen("$dir/a", 'w'));
}));
var_dump(moved(function () use ($src, $dir) {
    copy($src, "$dir/b");
}));
var_dump(moved(function () use ($src) {
    // a chunked buffer passes its output on: discard it in the handler
    ob_start(fn ($chunk) => '', 4096);
    readfile($src);
    ob_end_clean();
}));
var_dump(moved(function () use ($src) {
    ob_start();
    fpassthru(fopen($src, 'r'));
    ob_end_clean();
}));
// a function fastcopy does not override stays stock
var_dump(moved(function () use ($src) {
    file_get_contents($src);
}));
var_dump(md5_file("$dir/a") === md5_file($src), md5_file("$dir/b") === md5_file($src));
echo ini_get('fastcopy.override'), "\n";
// PHP_INI_SYSTEM: a script cannot switch it
var_dump(ini_set('fastcopy.override', '0'));
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
int(3145745)
int(3145745)
int(3145745)
int(3145745)
int(0)
bool(true)
bool(true)
1
bool(false)
