--TEST--
fastcopy.override: a built-in whose parameters are not the ones the override implements is left to stock, logged once, and shown in phpinfo() and fastcopy_stats()
--EXTENSIONS--
fastcopy
--SKIPIF--
<?php
// Compares child processes, which valgrind does not follow.
// (run-tests --asan turns PHP's allocator off too, but a sanitized PHP's children are checked: SKIP_ASAN)
if (getenv('USE_ZEND_ALLOC') === '0' && !getenv('SKIP_ASAN')) die('skip children are not run under valgrind');
if (!function_exists('proc_open')) die('skip proc_open needed');
// tests/run and CI build with it; a release build has no way to make the parameters differ
if (ini_get('fastcopy.dev_parameters') === false) die('skip needs a developer build (--enable-fastcopy-dev) for fastcopy.dev_parameters');
?>
--FILE--
<?php
require __DIR__ . '/override.inc';

/* The parameters of a built-in as the override spells them, derived here from
 * reflection: optional ones in brackets, PHP's spelling of each type. */
function spelled(string $function): string
{
    $out = '';
    foreach ((new ReflectionFunction($function))->getParameters() as $i => $p) {
        $out .= $p->isOptional() && ($i === 0 || !(new ReflectionFunction($function))->getParameters()[$i - 1]->isOptional())
            ? ($i ? '[, ' : '[') : ($i ? ', ' : '');
        $out .= ($p->hasType() ? $p->getType() . ' ' : '') . ($p->isPassedByReference() ? '&' : '')
            . ($p->isVariadic() ? '...' : '') . '$' . $p->getName();
    }
    return $out . (str_contains($out, '[') ? ']' : '');
}

$dir = fc_tmpdir();
$src = "$dir/src.bin";
file_put_contents($src, fc_bytes(100000, 5));
$s = var_export($src, true);
$d = var_export($dir, true);

// What the child sees: which built-ins moved bytes through the engine, its
// fastcopy_stats()['left_to_stock'], and the two phpinfo() rows.
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
ob_start();
phpinfo(INFO_MODULES);
preg_match_all('/^(Built-ins (?:on the engine|left to stock)) => (.*)$/m', ob_get_clean(), \$rows, PREG_SET_ORDER);
echo json_encode(['moved' => \$r, 'left_to_stock' => fastcopy_stats()['left_to_stock'],
    'phpinfo' => array_column(\$rows, 2, 1)], JSON_UNESCAPED_SLASHES), "\n";
PHP;

$log = "$dir/error.log";
function run(string $parameters, string $probe, string $log, string $override = '1'): array
{
    @unlink($log);
    // a startup error is always logged (display_startup_errors only adds it to the output)
    $r = fc_run_with_override($override, $probe, ['fastcopy.dev_parameters' => '"' . $parameters . '"',
        'display_startup_errors' => '0', 'log_errors' => '1', 'error_log' => $log]);
    $logged = is_file($log) ? preg_replace('/^\[[^]]*\] /m', '', trim(file_get_contents($log))) : '';
    $out = json_decode($r['stdout'], true) ?? $r['stdout'];
    return [$out, $logged, $r['stderr']];
}

$stock = spelled('stream_copy_to_stream');
echo "stream_copy_to_stream's own parameters: ", $stock === (PHP_VERSION_ID >= 80600
    ? '$from, $to[, ?int $length, int $offset, $context]' : '$from, $to[, ?int $length, int $offset]') ? 'as expected' : $stock, "\n";

// Control: the parameters it really has, so the override takes it over; nothing logged.
[$out, $logged, $stderr] = run("stream_copy_to_stream=$stock", $probe, $log);
echo json_encode($out['moved']), "\n";
var_dump($out['left_to_stock'], $out['phpinfo'], $logged, $stderr);

// Fewer parameters than the built-in has: left to stock, the others still on the engine.
foreach (['$from, $to', '$from[, $to, ?int $length, int $offset]', str_replace('?int', 'int', $stock)] as $ours) {
    echo "\n-- the override implements ($ours)\n";
    [$out, $logged, $stderr] = run("stream_copy_to_stream=$ours", $probe, $log);
    echo json_encode($out['moved']), "\n";
    $why = "its parameters are ($stock) where fastcopy implements ($ours)";
    var_dump($out['left_to_stock'] === ['stream_copy_to_stream' => $why]);
    var_dump($out['phpinfo'] === ['Built-ins on the engine' => 'fpassthru, readfile, copy, file_put_contents',
        'Built-ins left to stock' => "stream_copy_to_stream(): $why"]);
    // once, as a startup warning
    var_dump($logged === "PHP Warning:  fastcopy.override: stream_copy_to_stream() is left to stock PHP: $why in Unknown on line 0");
    var_dump($stderr);
}

// Another built-in, the same way.
echo "\n-- copy: the override implements (\$from, \$to)\n";
[$out, $logged] = run('copy=$from, $to', $probe, $log);
echo json_encode($out['moved']), "\n";
echo json_encode($out['left_to_stock'], JSON_UNESCAPED_SLASHES), "\n";
echo $logged, "\n";

// Only the built-ins fastcopy.override selects are checked, and only they reported.
echo "\n-- fastcopy.override=readfile\n";
[$out, $logged] = run('copy=$from, $to', $probe, $log, 'readfile');
echo json_encode($out['moved']), "\n";
echo json_encode($out['left_to_stock']), "\n";
var_dump($logged);
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
stream_copy_to_stream's own parameters: as expected
{"stream_copy_to_stream":"engine","fpassthru":"engine","readfile":"engine","copy":"engine","file_put_contents":"engine"}
array(0) {
}
array(2) {
  ["Built-ins on the engine"]=>
  string(67) "stream_copy_to_stream, fpassthru, readfile, copy, file_put_contents"
  ["Built-ins left to stock"]=>
  string(4) "none"
}
string(0) ""
string(0) ""

-- the override implements ($from, $to)
{"stream_copy_to_stream":"stock","fpassthru":"engine","readfile":"engine","copy":"engine","file_put_contents":"engine"}
bool(true)
bool(true)
bool(true)
string(0) ""

-- the override implements ($from[, $to, ?int $length, int $offset])
{"stream_copy_to_stream":"stock","fpassthru":"engine","readfile":"engine","copy":"engine","file_put_contents":"engine"}
bool(true)
bool(true)
bool(true)
string(0) ""

-- the override implements ($from, $to[, int $length, int $offset])
{"stream_copy_to_stream":"stock","fpassthru":"engine","readfile":"engine","copy":"engine","file_put_contents":"engine"}
bool(true)
bool(true)
bool(true)
string(0) ""

-- copy: the override implements ($from, $to)
{"stream_copy_to_stream":"engine","fpassthru":"engine","readfile":"engine","copy":"stock","file_put_contents":"engine"}
{"copy":"its parameters are (string $from, string $to[, $context]) where fastcopy implements ($from, $to)"}
PHP Warning:  fastcopy.override: copy() is left to stock PHP: its parameters are (string $from, string $to[, $context]) where fastcopy implements ($from, $to) in Unknown on line 0

-- fastcopy.override=readfile
{"stream_copy_to_stream":"stock","fpassthru":"stock","readfile":"engine","copy":"stock","file_put_contents":"stock"}
[]
string(0) ""
