--TEST--
fastcopy.override: copy() into a destination whose close fails returns what stock returns (true before PHP 8.6, false from 8.6 on: php-src c07cc850, PR #12067)
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
$src = "$dir/src.bin";
file_put_contents($src, fc_bytes(200000, 4));
$s = var_export($src, true);

// A destination that takes every byte and then fails to flush when it is closed.
$wrapper = 'class FailsAtClose { public $context; public static $got = 0;'
    . ' function stream_open($p, $m, $o, &$op) { return true; }'
    . ' function stream_write($d) { self::$got += strlen($d); return strlen($d); }'
    . ' function stream_flush() { return false; }'
    . ' function stream_close() {}'
    . ' function url_stat($p, $f) { return false; } }'
    . 'stream_wrapper_register("failsatclose", "FailsAtClose");';

$code = $wrapper . "\$r = copy($s, 'failsatclose://x'); echo FailsAtClose::\$got, ' bytes, '; var_dump(\$r === (PHP_VERSION_ID < 80600));";
fc_compare_override('copy into a destination that fails at close', $code);
echo fc_run_with_override('1', $code)['stdout'];
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECTF--
copy into a destination that fails at close: same (%d bytes)
200000 bytes, bool(true)
