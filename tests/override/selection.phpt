--TEST--
fastcopy.override: off by default, a list picks functions, unknown names are refused at startup
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
$src = "$dir/src.bin";
file_put_contents($src, fc_bytes(100000, 5));
$s = var_export($src, true);
$d = var_export($dir, true);

// Which of the five moved bytes through the engine, as the child sees it.
$probe = <<<PHP
\$moved = function (callable \$f) { \$b = array_sum(array_column(fastcopy_stats(), 'bytes')); \$f(); return array_sum(array_column(fastcopy_stats(), 'bytes')) > \$b ? 'engine' : 'stock'; };
ob_start();
\$r = [
  'stream_copy_to_stream' => \$moved(fn () => stream_copy_to_stream(fopen($s, 'r'), fopen('php://memory', 'w'))),
  'fpassthru' => \$moved(fn () => fpassthru(fopen($s, 'r'))),
  'readfile' => \$moved(fn () => readfile($s)),
  'copy' => \$moved(fn () => copy($s, $d . '/c')),
  'file_put_contents' => \$moved(fn () => file_put_contents($d . '/f', fopen($s, 'r'))),
];
ob_end_clean();
echo ini_get('fastcopy.override'), ': ', json_encode(\$r), "\n";
PHP;

foreach (['0', '', 'off', '1', 'all', 'readfile,copy', ' fpassthru , STREAM_COPY_TO_STREAM ', 'file_put_contents'] as $value) {
    $r = fc_run_with_override($value, $probe);
    echo $r['stdout'], $r['stderr'];
}
$r = fc_run_with_override('readfile,bogus', $probe);
echo $r['stdout'], $r['stderr'];
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECTF--
0: {"stream_copy_to_stream":"stock","fpassthru":"stock","readfile":"stock","copy":"stock","file_put_contents":"stock"}
: {"stream_copy_to_stream":"stock","fpassthru":"stock","readfile":"stock","copy":"stock","file_put_contents":"stock"}
: {"stream_copy_to_stream":"stock","fpassthru":"stock","readfile":"stock","copy":"stock","file_put_contents":"stock"}
1: {"stream_copy_to_stream":"engine","fpassthru":"engine","readfile":"engine","copy":"engine","file_put_contents":"engine"}
all: {"stream_copy_to_stream":"engine","fpassthru":"engine","readfile":"engine","copy":"engine","file_put_contents":"engine"}
readfile,copy: {"stream_copy_to_stream":"stock","fpassthru":"stock","readfile":"engine","copy":"engine","file_put_contents":"stock"}
 fpassthru , STREAM_COPY_TO_STREAM : {"stream_copy_to_stream":"engine","fpassthru":"engine","readfile":"stock","copy":"stock","file_put_contents":"stock"}
file_put_contents: {"stream_copy_to_stream":"stock","fpassthru":"stock","readfile":"stock","copy":"stock","file_put_contents":"engine"}
0: {"stream_copy_to_stream":"stock","fpassthru":"stock","readfile":"stock","copy":"stock","file_put_contents":"stock"}
%sfastcopy.override: unknown function "bogus" (expected all, or any of stream_copy_to_stream, fpassthru, readfile, copy, file_put_contents)%s
