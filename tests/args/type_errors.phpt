--TEST--
fastcopy_stream(): argument validation matches stream_copy_to_stream() (TypeError, ArgumentCountError, deprecations)
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--FILE--
<?php
function run_cases(string $fn): array
{
    $closed = fopen('php://memory', 'r');
    fclose($closed);
    $ctx = stream_context_create();
    $dir = opendir(__DIR__);
    $m = fn() => fopen('php://memory', 'r');
    $cases = [
        'no args' => fn() => $fn(),
        'one arg' => fn() => $fn($m()),
        // 8.6 added a fifth parameter, $context (php-src PR #20524)
        'one arg too many' => fn() => $fn($m(), $m(), 1, 0, ...array_fill(0, FC_MAX_ARGS - 3, null)),
        'string from' => fn() => $fn('php://memory', $m()),
        'int to' => fn() => $fn($m(), 42),
        'null from' => fn() => $fn(null, $m()),
        'array to' => fn() => $fn($m(), []),
        'object from' => fn() => $fn(new stdClass, $m()),
        'closed from' => fn() => $fn($closed, $m()),
        'closed to' => fn() => $fn($m(), $closed),
        'context from' => fn() => $fn($ctx, $m()),
        'context to' => fn() => $fn($m(), $ctx),
        'dir handle from' => fn() => $fn($dir, fopen('php://memory', 'w')),
        'string length' => fn() => $fn($m(), $m(), 'abc'),
        'numeric string length' => fn() => $fn($m(), $m(), '5'),
        'float length' => fn() => $fn($m(), $m(), 1.5),
        'bool length' => fn() => $fn($m(), $m(), true),
        'array offset' => fn() => $fn($m(), $m(), null, []),
        'null offset' => fn() => $fn($m(), $m(), null, null),
        'huge float offset' => fn() => $fn($m(), $m(), null, 1e30),
        'string offset' => fn() => $fn($m(), $m(), null, 'x'),
        'unknown named' => fn() => $fn(from: $m(), to: $m(), size: 3),
        'named missing to' => fn() => $fn(from: $m(), length: 3),
        'named dup' => fn() => $fn($m(), from: $m()),
    ];
    $out = [];
    foreach ($cases as $name => $c) {
        $line = [];
        set_error_handler(function ($no, $msg) use (&$line) {
            $line[] = "[$no] $msg";
            return true;
        });
        try {
            $r = $c();
            $line[] = 'returned ' . var_export($r, true);
        } catch (Throwable $e) {
            $line[] = get_class($e) . ': ' . $e->getMessage();
        }
        restore_error_handler();
        $out[$name] = implode(' / ', $line);
    }
    return $out;
}

/* What varies with the PHP version, in the words of the running one; the lines below
 * show these placeholders where the text is this PHP's. */
const FC_MAX_ARGS = PHP_VERSION_ID >= 80600 ? 5 : 4;
function fc_version_words(string $line): string
{
    // 8.5 checks stream arguments with PHP_Z_PARAM_STREAM (php-src PRs #17962, #18078) and
    // names the argument (tests/args/stream_errors_85.phpt); the raw lines are compared with
    // stock's below, so the argument named is checked on every version
    $notStream = PHP_VERSION_ID >= 80500
        ? ['fastcopy_stream(): Argument #1 ($from) must be an open stream resource' => '<not an open stream>',
           'fastcopy_stream(): Argument #2 ($to) must be an open stream resource' => '<not an open stream>']
        : ['fastcopy_stream(): supplied resource is not a valid stream resource' => '<not an open stream>'];
    return strtr($line, $notStream + [
        'expects at most ' . FC_MAX_ARGS . ' arguments, ' . (FC_MAX_ARGS + 1) . ' given' => 'expects at most <all> arguments, <one more> given',
    ]);
}

$fast = run_cases('fastcopy_stream');
$stock = run_cases('stream_copy_to_stream');
foreach ($fast as $name => $line) {
    echo "$name: ", fc_version_words($line), "\n";
    $expect = str_replace('stream_copy_to_stream()', 'fastcopy_stream()', $stock[$name]);
    if ($expect !== $line) {
        echo "  MISMATCH, stock says: {$stock[$name]}\n";
    }
}
?>
--EXPECT--
no args: ArgumentCountError: fastcopy_stream() expects at least 2 arguments, 0 given
one arg: ArgumentCountError: fastcopy_stream() expects at least 2 arguments, 1 given
one arg too many: ArgumentCountError: fastcopy_stream() expects at most <all> arguments, <one more> given
string from: TypeError: fastcopy_stream(): Argument #1 ($from) must be of type resource, string given
int to: TypeError: fastcopy_stream(): Argument #2 ($to) must be of type resource, int given
null from: TypeError: fastcopy_stream(): Argument #1 ($from) must be of type resource, null given
array to: TypeError: fastcopy_stream(): Argument #2 ($to) must be of type resource, array given
object from: TypeError: fastcopy_stream(): Argument #1 ($from) must be of type resource, stdClass given
closed from: TypeError: <not an open stream>
closed to: TypeError: <not an open stream>
context from: TypeError: <not an open stream>
context to: TypeError: <not an open stream>
dir handle from: returned false
string length: TypeError: fastcopy_stream(): Argument #3 ($length) must be of type ?int, string given
numeric string length: returned 0
float length: [8192] Implicit conversion from float 1.5 to int loses precision / returned 0
bool length: returned 0
array offset: TypeError: fastcopy_stream(): Argument #4 ($offset) must be of type int, array given
null offset: [8192] fastcopy_stream(): Passing null to parameter #4 ($offset) of type int is deprecated / returned 0
huge float offset: TypeError: fastcopy_stream(): Argument #4 ($offset) must be of type int, float given
string offset: TypeError: fastcopy_stream(): Argument #4 ($offset) must be of type int, string given
unknown named: Error: Unknown named parameter $size
named missing to: ArgumentCountError: fastcopy_stream(): Argument #2 ($to) not passed
named dup: Error: Named parameter $from overwrites previous argument
