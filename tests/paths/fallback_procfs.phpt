--TEST--
fastcopy_stream(): procfs/sysfs sources (copy_file_range returns 0 or EXDEV) fall back and copy the data (php-src GH-12899)
--SKIPIF--
<?php
if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded');
if (PHP_OS_FAMILY !== 'Linux') die('skip Linux only');
if (!is_readable('/proc/version') || !is_readable('/proc/self/status')) die('skip no procfs');
?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

function copy_proc(string $procPath, ?int $length = null, int $offset = 0): array
{
    $dst = fc_tmp('dst');
    $in = fopen($procPath, 'r');
    $out = fopen($dst, 'w');
    $before = fastcopy_stats();
    $ret = fastcopy_stream($in, $out, $length, $offset);
    $d = fc_stats_delta($before, fastcopy_stats());
    $pos = [ftell($in), ftell($out)];
    fclose($in);
    fclose($out);
    return [$ret, file_get_contents($dst), $pos, $d];
}

// stable content: /proc/version
$expected = file_get_contents('/proc/version');
[$ret, $got, $pos, $d] = copy_proc('/proc/version');
var_dump($ret === strlen($expected), $got === $expected, $pos === [strlen($expected), strlen($expected)]);
// copy_file_range was tried and declined (0 bytes on the first call, or EXDEV)
var_dump($d['copy_file_range']['calls'] >= 1, fc_fallbacks($d, 'copy_file_range') >= 1);
var_dump(($d['copy_file_range']['bytes']) === 0);
var_dump(array_sum(fc_paths_used($d)) === strlen($expected));

// offset and length on a procfs file
[$ret, $got, $pos] = copy_proc('/proc/version', 5, 2);
var_dump($ret, $got === substr($expected, 2, 5), $pos);

// /proc/self/status: sendfile refuses it too on many kernels; content of this very process
[$ret, $got, $pos, $d] = copy_proc('/proc/self/status');
var_dump($ret === strlen($got), $ret > 100, $pos === [$ret, $ret]);
var_dump(str_starts_with($got, "Name:\t"), (bool)preg_match('/^Pid:\t' . getmypid() . '$/m', $got));
var_dump(array_sum(fc_paths_used($d)) === $ret);

// a sysfs attribute, if there is one we can read (else nothing to check)
$sysResult = 'ok';
foreach (['/sys/kernel/mm/transparent_hugepage/enabled', '/sys/power/state', '/sys/kernel/osrelease'] as $sys) {
    $c = @file_get_contents($sys);
    if (is_string($c) && $c !== '') {
        [$ret, $got] = copy_proc($sys);
        $sysResult = ($ret === strlen($c) && $got === $c) ? 'ok' : "MISMATCH " . var_export([$ret, $got, $c], true);
        break;
    }
}
echo "sysfs: $sysResult\n";

// stock PHP returns 0 here on kernels where copy_file_range() reports 0 for
// procfs (documented difference); fastcopy always delivers the bytes.
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(5)
bool(true)
array(2) {
  [0]=>
  int(7)
  [1]=>
  int(5)
}
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
sysfs: ok
