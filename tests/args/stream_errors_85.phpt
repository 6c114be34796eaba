--TEST--
PHP 8.5: a stream argument that is not an open stream is "Argument #N ($name) must be an open stream resource", argument 1 checked fully before argument 2, in fastcopy_stream() and the overridden stream_copy_to_stream() and fpassthru()
--EXTENSIONS--
fastcopy
--SKIPIF--
<?php
if (PHP_VERSION_ID < 80500) die('skip PHP 8.5 changed these messages (PHP_Z_PARAM_STREAM, php-src PRs #17962, #18078); this PHP is ' . PHP_VERSION);
// The override half compares child processes, which valgrind does not follow.
if (getenv('USE_ZEND_ALLOC') === '0' && !getenv('SKIP_ASAN')) die('skip children are not run under valgrind');
if (!function_exists('proc_open')) die('skip proc_open needed');
?>
--FILE--
<?php
require __DIR__ . '/../override/override.inc';

function attempt(callable $f): string
{
    try {
        return 'returned ' . var_export($f(), true);
    } catch (Throwable $e) {
        return get_class($e) . ': ' . $e->getMessage();
    }
}

$closed = fopen('php://memory', 'r');
fclose($closed);
$ctx = stream_context_create();
$m = fn () => fopen('php://memory', 'r');
$cases = [
    'closed from' => fn ($fn) => $fn($closed, $m()),
    'closed to' => fn ($fn) => $fn($m(), $closed),
    'context from' => fn ($fn) => $fn($ctx, $m()),
    // 8.4 checked both types before fetching either stream: it blamed #2 here
    'closed from, string to' => fn ($fn) => $fn($closed, 'x'),
    'string from, closed to' => fn ($fn) => $fn('x', $closed),
];
foreach ($cases as $name => $case) {
    $fast = attempt(fn () => $case('fastcopy_stream'));
    $stock = attempt(fn () => $case('stream_copy_to_stream'));
    echo "$name: $fast\n";
    if ($fast !== str_replace('stream_copy_to_stream()', 'fastcopy_stream()', $stock)) {
        echo "  MISMATCH, stock says: $stock\n";
    }
}

// The overridden built-ins say what stock says.
$code = 'function attempt(callable $f) { try { $f(); } catch (Throwable $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; } }'
    . '$c = fopen("php://memory", "r"); fclose($c);'
    . 'attempt(fn () => stream_copy_to_stream($c, "x"));'
    . 'attempt(fn () => stream_copy_to_stream(fopen("php://memory", "r"), $c));'
    . 'attempt(fn () => fpassthru($c));'
    . 'attempt(fn () => fpassthru(stream_context_create()));';
fc_compare_override('override', $code);
echo fc_run_with_override('1', $code)['stdout'];
?>
--EXPECTF--
closed from: TypeError: fastcopy_stream(): Argument #1 ($from) must be an open stream resource
closed to: TypeError: fastcopy_stream(): Argument #2 ($to) must be an open stream resource
context from: TypeError: fastcopy_stream(): Argument #1 ($from) must be an open stream resource
closed from, string to: TypeError: fastcopy_stream(): Argument #1 ($from) must be an open stream resource
string from, closed to: TypeError: fastcopy_stream(): Argument #1 ($from) must be of type resource, string given
override: same (%d bytes)
TypeError: stream_copy_to_stream(): Argument #1 ($from) must be an open stream resource
TypeError: stream_copy_to_stream(): Argument #2 ($to) must be an open stream resource
TypeError: fpassthru(): Argument #1 ($stream) must be an open stream resource
TypeError: fpassthru(): Argument #1 ($stream) must be an open stream resource
