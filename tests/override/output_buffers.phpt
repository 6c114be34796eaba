--TEST--
fastcopy.override: after a copy into php://output, PHP's own output buffers hold what stock's writes leave in them (sizes below, at and above a chunk, mapped and read files, one buffer and nested ones, pieces, offsets, a partial read first), and what they pass on is stock's
--EXTENSIONS--
fastcopy
--SKIPIF--
<?php
// Compares child processes, which valgrind does not follow.
if (getenv('USE_ZEND_ALLOC') === '0' && !getenv('SKIP_ASAN')) die('skip children are not run under valgrind');
if (!function_exists('proc_open')) die('skip proc_open needed'); ?>
--FILE--
<?php
require __DIR__ . '/override.inc';

$dir = fc_tmpdir();
// Debian maps files up to 4 MiB in one write and reads larger ones 8 KiB at a time;
// sizes off 8 KiB boundaries leave a tail in the buffers.
$files = [];
foreach (['3000' => 3000, '100k' => 100000, '5M+120' => (5 << 20) + 120, '5M+5000' => (5 << 20) + 5000] as $name => $size) {
    $files[$name] = var_export($f = "$dir/$name.bin", true);
    file_put_contents($f, fc_bytes($size, strlen($name)));
}
// The child reports on stderr: what each buffer holds (length and a hash of its bytes),
// its status flags, and the hash of what passed to stdout.
$report = '$levels = []; foreach (ob_get_status(true) as $s) { $levels[] = [$s["chunk_size"], $s["buffer_used"], $s["flags"]]; }'
    . ' $held = []; while (ob_get_level()) { $held[] = md5(ob_get_clean()); }'
    . ' fwrite(STDERR, json_encode([$n, $levels, $held]) . "\n");';
$copies = [
    'readfile' => fn ($f) => "\$n = readfile($f);",
    'fpassthru after fread' => fn ($f) => "\$h = fopen($f, 'r'); fread(\$h, 333); \$n = fpassthru(\$h);",
    'stream_copy_to_stream' => fn ($f) => "\$n = stream_copy_to_stream(fopen($f, 'r'), fopen('php://output', 'w'));",
    'stream_copy_to_stream, length and offset' => fn ($f) => "\$n = stream_copy_to_stream(fopen($f, 'r'), fopen('php://output', 'w'), 70001, 999);",
    "sabre/http's 4 MiB pieces" => fn ($f) => "\$h = fopen($f, 'r'); \$o = fopen('php://output', 'w'); \$n = 0; while (!feof(\$h)) { \$n += stream_copy_to_stream(\$h, \$o, 4 << 20); }",
];
$buffers = [
    'output_buffering=4096' => ['', ['output_buffering' => 4096]],
    'ob_start(null, 10000) after output' => ['echo str_repeat("a", 3000); ob_start(null, 10000);', []],
    'ob_start(null, 200000)' => ['ob_start(null, 200000);', []],
    'ob_start(null, 1)' => ['ob_start(null, 1);', []],
    'nested, 65536 then 4096' => ['ob_start(null, 65536); ob_start(null, 4096);', []],
    'ob_start() without a chunk size' => ['ob_start();', []],
];
foreach ($files as $name => $f) {
    foreach ($copies as $copy => $code) {
        foreach ($buffers as $buffer => [$start, $ini]) {
            fc_compare_override("$name, $copy, $buffer", $start . $code($f) . $report, $ini);
        }
    }
}
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECTF--
3000, readfile, output_buffering=4096: same (%d bytes)
3000, readfile, ob_start(null, 10000) after output: same (%d bytes)
3000, readfile, ob_start(null, 200000): same (%d bytes)
3000, readfile, ob_start(null, 1): same (%d bytes)
3000, readfile, nested, 65536 then 4096: same (%d bytes)
3000, readfile, ob_start() without a chunk size: same (%d bytes)
3000, fpassthru after fread, output_buffering=4096: same (%d bytes)
3000, fpassthru after fread, ob_start(null, 10000) after output: same (%d bytes)
3000, fpassthru after fread, ob_start(null, 200000): same (%d bytes)
3000, fpassthru after fread, ob_start(null, 1): same (%d bytes)
3000, fpassthru after fread, nested, 65536 then 4096: same (%d bytes)
3000, fpassthru after fread, ob_start() without a chunk size: same (%d bytes)
3000, stream_copy_to_stream, output_buffering=4096: same (%d bytes)
3000, stream_copy_to_stream, ob_start(null, 10000) after output: same (%d bytes)
3000, stream_copy_to_stream, ob_start(null, 200000): same (%d bytes)
3000, stream_copy_to_stream, ob_start(null, 1): same (%d bytes)
3000, stream_copy_to_stream, nested, 65536 then 4096: same (%d bytes)
3000, stream_copy_to_stream, ob_start() without a chunk size: same (%d bytes)
3000, stream_copy_to_stream, length and offset, output_buffering=4096: same (%d bytes)
3000, stream_copy_to_stream, length and offset, ob_start(null, 10000) after output: same (%d bytes)
3000, stream_copy_to_stream, length and offset, ob_start(null, 200000): same (%d bytes)
3000, stream_copy_to_stream, length and offset, ob_start(null, 1): same (%d bytes)
3000, stream_copy_to_stream, length and offset, nested, 65536 then 4096: same (%d bytes)
3000, stream_copy_to_stream, length and offset, ob_start() without a chunk size: same (%d bytes)
3000, sabre/http's 4 MiB pieces, output_buffering=4096: same (%d bytes)
3000, sabre/http's 4 MiB pieces, ob_start(null, 10000) after output: same (%d bytes)
3000, sabre/http's 4 MiB pieces, ob_start(null, 200000): same (%d bytes)
3000, sabre/http's 4 MiB pieces, ob_start(null, 1): same (%d bytes)
3000, sabre/http's 4 MiB pieces, nested, 65536 then 4096: same (%d bytes)
3000, sabre/http's 4 MiB pieces, ob_start() without a chunk size: same (%d bytes)
100k, readfile, output_buffering=4096: same (%d bytes)
100k, readfile, ob_start(null, 10000) after output: same (%d bytes)
100k, readfile, ob_start(null, 200000): same (%d bytes)
100k, readfile, ob_start(null, 1): same (%d bytes)
100k, readfile, nested, 65536 then 4096: same (%d bytes)
100k, readfile, ob_start() without a chunk size: same (%d bytes)
100k, fpassthru after fread, output_buffering=4096: same (%d bytes)
100k, fpassthru after fread, ob_start(null, 10000) after output: same (%d bytes)
100k, fpassthru after fread, ob_start(null, 200000): same (%d bytes)
100k, fpassthru after fread, ob_start(null, 1): same (%d bytes)
100k, fpassthru after fread, nested, 65536 then 4096: same (%d bytes)
100k, fpassthru after fread, ob_start() without a chunk size: same (%d bytes)
100k, stream_copy_to_stream, output_buffering=4096: same (%d bytes)
100k, stream_copy_to_stream, ob_start(null, 10000) after output: same (%d bytes)
100k, stream_copy_to_stream, ob_start(null, 200000): same (%d bytes)
100k, stream_copy_to_stream, ob_start(null, 1): same (%d bytes)
100k, stream_copy_to_stream, nested, 65536 then 4096: same (%d bytes)
100k, stream_copy_to_stream, ob_start() without a chunk size: same (%d bytes)
100k, stream_copy_to_stream, length and offset, output_buffering=4096: same (%d bytes)
100k, stream_copy_to_stream, length and offset, ob_start(null, 10000) after output: same (%d bytes)
100k, stream_copy_to_stream, length and offset, ob_start(null, 200000): same (%d bytes)
100k, stream_copy_to_stream, length and offset, ob_start(null, 1): same (%d bytes)
100k, stream_copy_to_stream, length and offset, nested, 65536 then 4096: same (%d bytes)
100k, stream_copy_to_stream, length and offset, ob_start() without a chunk size: same (%d bytes)
100k, sabre/http's 4 MiB pieces, output_buffering=4096: same (%d bytes)
100k, sabre/http's 4 MiB pieces, ob_start(null, 10000) after output: same (%d bytes)
100k, sabre/http's 4 MiB pieces, ob_start(null, 200000): same (%d bytes)
100k, sabre/http's 4 MiB pieces, ob_start(null, 1): same (%d bytes)
100k, sabre/http's 4 MiB pieces, nested, 65536 then 4096: same (%d bytes)
100k, sabre/http's 4 MiB pieces, ob_start() without a chunk size: same (%d bytes)
5M+120, readfile, output_buffering=4096: same (%d bytes)
5M+120, readfile, ob_start(null, 10000) after output: same (%d bytes)
5M+120, readfile, ob_start(null, 200000): same (%d bytes)
5M+120, readfile, ob_start(null, 1): same (%d bytes)
5M+120, readfile, nested, 65536 then 4096: same (%d bytes)
5M+120, readfile, ob_start() without a chunk size: same (%d bytes)
5M+120, fpassthru after fread, output_buffering=4096: same (%d bytes)
5M+120, fpassthru after fread, ob_start(null, 10000) after output: same (%d bytes)
5M+120, fpassthru after fread, ob_start(null, 200000): same (%d bytes)
5M+120, fpassthru after fread, ob_start(null, 1): same (%d bytes)
5M+120, fpassthru after fread, nested, 65536 then 4096: same (%d bytes)
5M+120, fpassthru after fread, ob_start() without a chunk size: same (%d bytes)
5M+120, stream_copy_to_stream, output_buffering=4096: same (%d bytes)
5M+120, stream_copy_to_stream, ob_start(null, 10000) after output: same (%d bytes)
5M+120, stream_copy_to_stream, ob_start(null, 200000): same (%d bytes)
5M+120, stream_copy_to_stream, ob_start(null, 1): same (%d bytes)
5M+120, stream_copy_to_stream, nested, 65536 then 4096: same (%d bytes)
5M+120, stream_copy_to_stream, ob_start() without a chunk size: same (%d bytes)
5M+120, stream_copy_to_stream, length and offset, output_buffering=4096: same (%d bytes)
5M+120, stream_copy_to_stream, length and offset, ob_start(null, 10000) after output: same (%d bytes)
5M+120, stream_copy_to_stream, length and offset, ob_start(null, 200000): same (%d bytes)
5M+120, stream_copy_to_stream, length and offset, ob_start(null, 1): same (%d bytes)
5M+120, stream_copy_to_stream, length and offset, nested, 65536 then 4096: same (%d bytes)
5M+120, stream_copy_to_stream, length and offset, ob_start() without a chunk size: same (%d bytes)
5M+120, sabre/http's 4 MiB pieces, output_buffering=4096: same (%d bytes)
5M+120, sabre/http's 4 MiB pieces, ob_start(null, 10000) after output: same (%d bytes)
5M+120, sabre/http's 4 MiB pieces, ob_start(null, 200000): same (%d bytes)
5M+120, sabre/http's 4 MiB pieces, ob_start(null, 1): same (%d bytes)
5M+120, sabre/http's 4 MiB pieces, nested, 65536 then 4096: same (%d bytes)
5M+120, sabre/http's 4 MiB pieces, ob_start() without a chunk size: same (%d bytes)
5M+5000, readfile, output_buffering=4096: same (%d bytes)
5M+5000, readfile, ob_start(null, 10000) after output: same (%d bytes)
5M+5000, readfile, ob_start(null, 200000): same (%d bytes)
5M+5000, readfile, ob_start(null, 1): same (%d bytes)
5M+5000, readfile, nested, 65536 then 4096: same (%d bytes)
5M+5000, readfile, ob_start() without a chunk size: same (%d bytes)
5M+5000, fpassthru after fread, output_buffering=4096: same (%d bytes)
5M+5000, fpassthru after fread, ob_start(null, 10000) after output: same (%d bytes)
5M+5000, fpassthru after fread, ob_start(null, 200000): same (%d bytes)
5M+5000, fpassthru after fread, ob_start(null, 1): same (%d bytes)
5M+5000, fpassthru after fread, nested, 65536 then 4096: same (%d bytes)
5M+5000, fpassthru after fread, ob_start() without a chunk size: same (%d bytes)
5M+5000, stream_copy_to_stream, output_buffering=4096: same (%d bytes)
5M+5000, stream_copy_to_stream, ob_start(null, 10000) after output: same (%d bytes)
5M+5000, stream_copy_to_stream, ob_start(null, 200000): same (%d bytes)
5M+5000, stream_copy_to_stream, ob_start(null, 1): same (%d bytes)
5M+5000, stream_copy_to_stream, nested, 65536 then 4096: same (%d bytes)
5M+5000, stream_copy_to_stream, ob_start() without a chunk size: same (%d bytes)
5M+5000, stream_copy_to_stream, length and offset, output_buffering=4096: same (%d bytes)
5M+5000, stream_copy_to_stream, length and offset, ob_start(null, 10000) after output: same (%d bytes)
5M+5000, stream_copy_to_stream, length and offset, ob_start(null, 200000): same (%d bytes)
5M+5000, stream_copy_to_stream, length and offset, ob_start(null, 1): same (%d bytes)
5M+5000, stream_copy_to_stream, length and offset, nested, 65536 then 4096: same (%d bytes)
5M+5000, stream_copy_to_stream, length and offset, ob_start() without a chunk size: same (%d bytes)
5M+5000, sabre/http's 4 MiB pieces, output_buffering=4096: same (%d bytes)
5M+5000, sabre/http's 4 MiB pieces, ob_start(null, 10000) after output: same (%d bytes)
5M+5000, sabre/http's 4 MiB pieces, ob_start(null, 200000): same (%d bytes)
5M+5000, sabre/http's 4 MiB pieces, ob_start(null, 1): same (%d bytes)
5M+5000, sabre/http's 4 MiB pieces, nested, 65536 then 4096: same (%d bytes)
5M+5000, sabre/http's 4 MiB pieces, ob_start() without a chunk size: same (%d bytes)
