--TEST--
PHP 8.6: stream_copy_to_stream() takes a $context under the override and in fastcopy_stream(), stream errors are stock's, and the pairs stock 8.6 copies in the kernel itself are left to it
--EXTENSIONS--
fastcopy
--SKIPIF--
<?php
if (PHP_VERSION_ID < 80600) die('skip PHP 8.6 added $context (php-src PR #20524) and its own kernel copies (PR #20399); this PHP is ' . PHP_VERSION);
// Compares child processes, which valgrind does not follow.
if (getenv('USE_ZEND_ALLOC') === '0' && !getenv('SKIP_ASAN')) die('skip children are not run under valgrind');
if (!function_exists('proc_open')) die('skip proc_open needed');
?>
--FILE--
<?php
require __DIR__ . '/override.inc';

$dir = fc_tmpdir();
$src = "$dir/src.bin";
file_put_contents($src, fc_bytes(300000, 9));
$s = var_export($src, true);
$d = var_export($dir, true);

// fastcopy_stream() has stream_copy_to_stream()'s fifth parameter
$r = new ReflectionFunction('fastcopy_stream');
echo 'fastcopy_stream: ', $r->getNumberOfParameters(), ' parameters, the last $', $r->getParameters()[4]->getName(), "\n";
var_dump(fastcopy_stream(fopen($src, 'r'), fopen('php://memory', 'w'), null, 0, stream_context_create()));
var_dump(fastcopy_stream(fopen($src, 'r'), fopen('php://memory', 'w'), null, 0, null));

// Each case's output, return values, warnings and stream_last_errors(), stock against the override.
$errors = 'var_dump(stream_last_errors());';
$cases = [
    'with a context' => "var_dump(stream_copy_to_stream(fopen($s, 'r'), fopen('php://memory', 'w'), null, 0, stream_context_create()));",
    'with a null context' => "var_dump(stream_copy_to_stream(fopen($s, 'r'), fopen($d . '/a', 'w'), 1000, 7, null));",
    'named context' => "var_dump(stream_copy_to_stream(from: fopen($s, 'r'), to: fopen('php://memory', 'w'), context: null));",
    'a bad context' => "try { stream_copy_to_stream(fopen($s, 'r'), fopen('php://memory', 'w'), null, 0, 5); } catch (TypeError \$e) { echo \$e->getMessage(), \"\\n\"; }",
    'too many' => "try { stream_copy_to_stream(fopen($s, 'r'), fopen('php://memory', 'w'), null, 0, null, 1); } catch (ArgumentCountError \$e) { echo \$e->getMessage(), \"\\n\"; }",
    'a seek that fails' => "var_dump(stream_copy_to_stream(popen('true', 'r'), fopen('php://memory', 'w'), null, 10, stream_context_create())); $errors",
    'into a read-only file' => "var_dump(stream_copy_to_stream(fopen($s, 'r'), fopen($s, 'r'))); $errors",
    'to a peer that hung up' => "\$p = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0); fclose(\$p[1]); var_dump(stream_copy_to_stream(fopen($s, 'r'), \$p[0])); $errors",
    'to a hung-up peer through a filter' => "\$p = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0); fclose(\$p[1]); stream_filter_append(\$p[0], 'string.rot13', STREAM_FILTER_WRITE); var_dump(stream_copy_to_stream(fopen($s, 'r'), \$p[0])); $errors",
    'fpassthru of a closed socket' => "\$p = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0); fclose(\$p[1]); var_dump(fpassthru(\$p[0])); $errors",
    'readfile of a missing file' => "var_dump(readfile($d . '/missing', false, stream_context_create())); $errors",
    'copy of a missing file' => "var_dump(copy($d . '/missing', $d . '/b')); $errors",
];
foreach ($cases as $label => $code) {
    fc_compare_override($label, $code, ['error_reporting' => E_ALL]);
}

// Which pairs the override leaves to stock 8.6 (its kernel copy) and which it keeps.
$probe = <<<PHP
\$moved = function (callable \$f) { \$b = array_sum(array_column(fastcopy_stats(), 'bytes')); \$f(); return array_sum(array_column(fastcopy_stats(), 'bytes')) > \$b ? 'engine' : 'stock'; };
\$sock = fn () => stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, 0);
\$r = [
  'file to file' => \$moved(fn () => stream_copy_to_stream(fopen($s, 'r'), fopen($d . '/c', 'w'))),
  'file to a socket' => \$moved(function () use (\$sock) { \$p = \$sock(); stream_set_blocking(\$p[0], false); stream_copy_to_stream(fopen($s, 'r'), \$p[0], 1000); }),
  'file to an O_APPEND file' => \$moved(fn () => stream_copy_to_stream(fopen($s, 'r'), fopen($d . '/c', 'a'))),
  'file read ahead' => \$moved(function () { \$h = fopen($s, 'r'); fgets(\$h); stream_copy_to_stream(\$h, fopen($d . '/c', 'w')); }),
  'file through a filter' => \$moved(function () { \$h = fopen($s, 'r'); stream_filter_append(\$h, 'string.rot13'); stream_copy_to_stream(\$h, fopen($d . '/c', 'w')); }),
  'file with a notifier' => \$moved(fn () => stream_copy_to_stream(fopen($s, 'r', false, stream_context_create([], ['notification' => fn () => null])), fopen($d . '/c', 'w'))),
  'file to php://memory' => \$moved(fn () => stream_copy_to_stream(fopen($s, 'r'), fopen('php://memory', 'w'))),
  'file to php://output' => \$moved(function () { ob_start(); stream_copy_to_stream(fopen($s, 'r'), fopen('php://output', 'w')); ob_end_clean(); }),
  'copy()' => \$moved(fn () => copy($s, $d . '/e')),
  'fastcopy_stream(), file to file' => \$moved(fn () => fastcopy_stream(fopen($s, 'r'), fopen($d . '/f', 'w'))),
];
foreach (\$r as \$k => \$v) { echo "\$k: \$v\\n"; }
PHP;
echo fc_run_with_override('1', $probe)['stdout'];
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECTF--
fastcopy_stream: 5 parameters, the last $context
int(300000)
int(300000)
with a context: same (%d bytes)
with a null context: same (%d bytes)
named context: same (%d bytes)
a bad context: same (%d bytes)
too many: same (%d bytes)
a seek that fails: same (%d bytes)
into a read-only file: same (%d bytes)
to a peer that hung up: same (%d bytes)
to a hung-up peer through a filter: same (%d bytes)
fpassthru of a closed socket: same (%d bytes)
readfile of a missing file: same (%d bytes)
copy of a missing file: same (%d bytes)
file to file: stock
file to a socket: stock
file to an O_APPEND file: engine
file read ahead: engine
file through a filter: engine
file with a notifier: engine
file to php://memory: engine
file to php://output: engine
copy(): stock
fastcopy_stream(), file to file: engine
