--TEST--
fastcopy.disable (PHP_INI_ALL): listed paths are switched off for the following copies; buffered always remains
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
fastcopy.disable=copy_file_range
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

// set from --INI-- at startup
var_dump(ini_get('fastcopy.disable'));

$data = fc_bytes(500000, 6);
$srcPath = fc_file_with($data);

function file_to(string $dstKind): array
{
    global $srcPath, $data;
    $in = fopen($srcPath, 'r');
    $dst = fc_make_dest($dstKind);
    $before = fastcopy_stats();
    $ret = fastcopy_stream($in, $dst->stream);
    $used = fc_paths_used(fc_stats_delta($before, fastcopy_stats()));
    $ok = $ret === strlen($data) && $dst->collect() === $data;
    $dst->close();
    fclose($in);
    ksort($used);
    return [$ok, implode('+', array_keys($used))];
}

$sets = ['copy_file_range', '', 'sendfile', 'copy_file_range,sendfile', 'copy_file_range,sendfile,splice',
    'mmap', 'copy_file_range,sendfile,splice,mmap'];
foreach ($sets as $i => $set) {
    if ($i > 0) {
        ini_set('fastcopy.disable', $set);
    }
    $line = [];
    foreach (['file', 'pair', 'memory'] as $dstKind) {
        [$ok, $paths] = file_to($dstKind);
        $disabled = $set === '' ? [] : explode(',', $set);
        $violations = array_intersect(explode('+', $paths), $disabled);
        $line[] = "$dstKind:" . ($ok ? '' : 'WRONG-DATA:') . ($violations ? 'USED-DISABLED:' : '') . $paths;
    }
    printf("%-40s %s\n", $set === '' ? "''" : $set, implode(' ', $line));
}

// ini_set returns the previous value; ini_restore goes back to the startup value
var_dump(ini_set('fastcopy.disable', 'sendfile'));
ini_restore('fastcopy.disable');
var_dump(ini_get('fastcopy.disable'));

// 'buffered' cannot be disabled: whatever ini_set makes of it, copies still work through buffered
ini_set('fastcopy.disable', 'copy_file_range,sendfile,splice,mmap');
@ini_set('fastcopy.disable', 'copy_file_range,sendfile,splice,mmap,buffered');
$m = fopen('php://memory', 'w+');
fwrite($m, 'still copies');
rewind($m);
$n = fopen('php://memory', 'w+');
$before = fastcopy_stats();
var_dump(fastcopy_stream($m, $n));
var_dump(fc_paths_used(fc_stats_delta($before, fastcopy_stats())));
rewind($n);
var_dump(stream_get_contents($n));
[$ok, $paths] = file_to('file');
var_dump($ok, $paths);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
string(15) "copy_file_range"
copy_file_range                          file:sendfile pair:sendfile memory:mmap
''                                       file:copy_file_range pair:sendfile memory:mmap
sendfile                                 file:copy_file_range pair:mmap memory:mmap
copy_file_range,sendfile                 file:mmap pair:mmap memory:mmap
copy_file_range,sendfile,splice          file:mmap pair:mmap memory:mmap
mmap                                     file:copy_file_range pair:sendfile memory:buffered
copy_file_range,sendfile,splice,mmap     file:buffered pair:buffered memory:buffered
string(36) "copy_file_range,sendfile,splice,mmap"
string(15) "copy_file_range"
int(12)
array(1) {
  ["buffered"]=>
  int(12)
}
string(12) "still copies"
bool(true)
string(8) "buffered"
