--TEST--
fastcopy.override: readfile, fpassthru, stream_copy_to_stream and copy print, return and warn exactly as stock
--EXTENSIONS--
fastcopy
--SKIPIF--
<?php
// Compares child processes, which valgrind does not follow; engine_used.phpt runs the handlers in-process.
// (run-tests --asan turns PHP's allocator off too, but a sanitized PHP's children are checked: SKIP_ASAN)
if (getenv('USE_ZEND_ALLOC') === '0' && !getenv('SKIP_ASAN')) die('skip children are not run under valgrind');
if (!function_exists('proc_open')) die('skip proc_open needed'); ?>
--FILE--
<?php
require __DIR__ . '/override.inc';

$dir = fc_tmpdir();
$big = "$dir/big.bin";
file_put_contents($big, fc_bytes(5 * 1024 * 1024 + 4321, 7));
$small = "$dir/small.txt";
file_put_contents($small, fc_text(70000, 3));
$b = var_export($big, true);
$s = var_export($small, true);
$d = var_export($dir, true);

$cases = [
    'readfile, nothing printed before' => "var_dump(readfile($b));",
    'readfile after output' => "echo 'head'; var_dump(readfile($s)); echo 'tail';",
    'readfile inside a chunked output buffer' => "ob_start(null, 4096); \$n = readfile($b); ob_end_flush(); var_dump(\$n);",
    'readfile inside an unchunked output buffer' => "ob_start(); \$n = readfile($s); \$c = ob_get_clean(); var_dump(\$n, md5(\$c));",
    'readfile of a missing file' => "var_dump(readfile($d . '/missing'));",
    'readfile of a directory' => "var_dump(readfile($d));",
    'readfile with output_buffering=4096' => ['var_dump(readfile(' . $b . '));', ['output_buffering' => 4096]],
    'fpassthru after a partial read' => "\$h = fopen($b, 'r'); fread(\$h, 1000); fgets(\$h); var_dump(fpassthru(\$h), ftell(\$h), feof(\$h));",
    'fpassthru of a memory stream' => "\$h = fopen('php://memory', 'w+'); fwrite(\$h, str_repeat('xy', 50000)); rewind(\$h); var_dump(fpassthru(\$h));",
    'fpassthru of a filtered stream' => "\$h = fopen($s, 'r'); stream_filter_append(\$h, 'string.rot13'); var_dump(fpassthru(\$h));",
    'fpassthru at the end' => "\$h = fopen($s, 'r'); fseek(\$h, 0, SEEK_END); var_dump(fpassthru(\$h));",
    'stream_copy_to_stream to php://output' => "\$h = fopen($b, 'r'); var_dump(stream_copy_to_stream(\$h, fopen('php://output', 'w'), 3000000, 12345), ftell(\$h));",
    'stream_copy_to_stream to memory' => "\$h = fopen($b, 'r'); \$m = fopen('php://memory', 'w+'); var_dump(stream_copy_to_stream(\$h, \$m, -1, 5), ftell(\$h), ftell(\$m)); rewind(\$m); var_dump(md5(stream_get_contents(\$m)));",
    // a pipe cannot seek on any PHP
    'stream_copy_to_stream with bad offset' => "var_dump(stream_copy_to_stream(popen('true', 'r'), fopen('php://memory', 'w'), null, 10));",
    // PHP 8.2 cannot seek php://memory past its end and fails; 8.3 and later can, and copy nothing
    'stream_copy_to_stream from past the end of php://memory' => "var_dump(stream_copy_to_stream(fopen('php://memory', 'r'), fopen('php://memory', 'w'), null, 10) === (PHP_VERSION_ID >= 80300 ? 0 : false));",
    'copy a file' => "var_dump(copy($b, $d . '/copy1')); var_dump(md5_file($d . '/copy1') === md5_file($b));",
    'copy onto itself' => "var_dump(copy($b, $b), filesize($b));",
    'copy a directory' => "var_dump(copy($d, $d . '/x'));",
    'copy into a directory' => "var_dump(copy($s, $d));",
    'copy a missing file' => "var_dump(copy($d . '/missing', $d . '/y'));",
    'copy from a data: URL' => "var_dump(copy('data://text/plain;base64,SGVsbG8=', $d . '/copy2'), file_get_contents($d . '/copy2'));",
    'type errors keep the built-in names' => "foreach (['readfile' => [[]], 'fpassthru' => ['x'], 'stream_copy_to_stream' => [1, 2], 'copy' => [[], 'x']] as \$f => \$a) { try { \$f(...\$a); } catch (TypeError \$e) { echo \$e->getMessage(), \"\\n\"; } }",
];
foreach ($cases as $label => $case) {
    [$code, $ini] = is_array($case) ? $case : [$case, []];
    fc_compare_override($label, $code, $ini);
}
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
readfile, nothing printed before: same (5247214 bytes)
readfile after output: same (70019 bytes)
readfile inside a chunked output buffer: same (5247214 bytes)
readfile inside an unchunked output buffer: same (57 bytes)
readfile of a missing file: same (12 bytes)
readfile of a directory: same (8 bytes)
readfile with output_buffering=4096: same (5247214 bytes)
fpassthru after a partial read: same (5246179 bytes)
fpassthru of a memory stream: same (100012 bytes)
fpassthru of a filtered stream: same (70011 bytes)
fpassthru at the end: same (7 bytes)
stream_copy_to_stream to php://output: same (3000026 bytes)
stream_copy_to_stream to memory: same (85 bytes)
stream_copy_to_stream with bad offset: same (12 bytes)
stream_copy_to_stream from past the end of php://memory: same (11 bytes)
copy a file: same (22 bytes)
copy onto itself: same (25 bytes)
copy a directory: same (12 bytes)
copy into a directory: same (12 bytes)
copy a missing file: same (12 bytes)
copy from a data: URL: same (29 bytes)
type errors keep the built-in names: same (291 bytes)
