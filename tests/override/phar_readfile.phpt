--TEST--
fastcopy.override: phar's readfile() still resolves relative names inside a running archive
--EXTENSIONS--
fastcopy
phar
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
$pharFile = "$dir/app.phar";
$r = fc_run_with_override('0', '$p = new Phar(' . var_export($pharFile, true) . ');'
    . '$p->addFromString("data.txt", "inside the archive\n");'
    . '$p->addFromString("index.php", "<?php var_dump(readfile(\"data.txt\")); var_dump(readfile(__FILE__ === \"\" ? \"\" : \"phar://\" . Phar::running(false) . \"/data.txt\"));");'
    . '$p->setStub("<?php Phar::mapPhar(\"app.phar\"); Phar::interceptFileFuncs(); include \"phar://app.phar/index.php\"; __HALT_COMPILER();");',
    ['phar.readonly' => '0']);
echo $r['stderr'];
file_put_contents("$dir/data.txt", "outside the archive\n");

foreach (['0', '1'] as $override) {
    echo "override=$override\n";
    $cwd = getcwd();
    chdir($dir);
    $r = fc_run_with_override($override, 'include ' . var_export($pharFile, true) . ';');
    chdir($cwd);
    echo $r['stdout'], $r['stderr'];
}
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
override=0
inside the archive
int(19)
inside the archive
int(19)
override=1
inside the archive
int(19)
inside the archive
int(19)
