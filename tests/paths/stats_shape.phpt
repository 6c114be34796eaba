--TEST--
fastcopy_stats(): shape, types and cumulative counting
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

function check_shape(array $st): void
{
    var_dump(array_keys($st));
    // not a counter: the built-ins fastcopy.override left to stock (none here)
    var_dump($st['left_to_stock']);
    unset($st['left_to_stock']);
    foreach ($st as $path => $p) {
        // fastcgi_input also counts what it spliced into the file and cloned into the spool,
        // body_file what the spool took from the stored body without a copy,
        $keys = match ($path) {
            'fastcgi_input' => ['calls', 'bytes', 'fallbacks', 'spliced', 'spool_cloned'],
            'body_file' => ['calls', 'bytes', 'fallbacks', 'spool_shared'],
            // what the web server sent itself, and in how many responses
            'handover' => ['calls', 'bytes', 'fallbacks', 'handed_over', 'responses'],
            default => ['calls', 'bytes', 'fallbacks'],
        };
        $ok = is_array($p) && array_keys($p) === $keys
            && array_reduce(array_slice($keys, 3), fn ($ok, $k) => $ok && is_int($p[$k]) && $p[$k] >= 0 && $p[$k] <= $p['bytes'], true)
            && is_int($p['calls']) && $p['calls'] >= 0
            && is_int($p['bytes']) && $p['bytes'] >= 0
            && is_array($p['fallbacks']);
        foreach ($p['fallbacks'] as $reason => $n) {
            $ok = $ok && is_string($reason) && $reason !== '' && is_int($n) && $n > 0;
        }
        echo "$path: ", $ok ? 'ok' : 'BAD ' . json_encode($p), "\n";
    }
}

$first = fastcopy_stats();
check_shape($first);

$data = fc_bytes(123457, 3);
$src = fc_file_with($data);
$dst = fc_tmp('dst');

$a = fopen($src, 'r');
$b = fopen($dst, 'w');
var_dump(fastcopy_stream($a, $b));
fclose($a);
fclose($b);
$second = fastcopy_stats();
$d = fc_stats_delta($first, $second);
var_dump($d['copy_file_range']['bytes'], $d['copy_file_range']['calls'] >= 1);
var_dump(file_get_contents($dst) === $data);

// a second copy adds to the counters (cumulative per process)
$a = fopen($src, 'r');
$b = fopen($dst, 'w');
var_dump(fastcopy_stream($a, $b, 1000, 5));
fclose($a);
fclose($b);
$third = fastcopy_stats();
var_dump($third['copy_file_range']['bytes'] - $first['copy_file_range']['bytes']);
var_dump(file_get_contents($dst) === substr($data, 5, 1000));

// counters never go down
$mono = true;
foreach (array_diff_key($third, ['left_to_stock' => 0]) as $path => $p) {
    $mono = $mono && $p['calls'] >= $first[$path]['calls'] && $p['bytes'] >= $first[$path]['bytes'];
    foreach ($first[$path]['fallbacks'] as $r => $n) {
        $mono = $mono && ($p['fallbacks'][$r] ?? 0) >= $n;
    }
}
var_dump($mono);

// memory -> memory goes through buffered and is counted there
$m1 = fopen('php://memory', 'w+');
fwrite($m1, 'hello world');
rewind($m1);
$m2 = fopen('php://memory', 'w+');
$before = fastcopy_stats();
var_dump(fastcopy_stream($m1, $m2));
$d = fc_stats_delta($before, fastcopy_stats());
var_dump(fc_paths_used($d));

// a zero-length request moves nothing anywhere
$before = fastcopy_stats();
rewind($m1);
var_dump(fastcopy_stream($m1, $m2, 0));
var_dump(fc_paths_used(fc_stats_delta($before, fastcopy_stats())));

try {
    fastcopy_stats(1);
} catch (ArgumentCountError $e) {
    echo $e->getMessage(), "\n";
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
array(14) {
  [0]=>
  string(15) "copy_file_range"
  [1]=>
  string(8) "sendfile"
  [2]=>
  string(6) "splice"
  [3]=>
  string(8) "handover"
  [4]=>
  string(7) "fastcgi"
  [5]=>
  string(6) "apache"
  [6]=>
  string(5) "spool"
  [7]=>
  string(9) "body_file"
  [8]=>
  string(13) "fastcgi_input"
  [9]=>
  string(4) "mmap"
  [10]=>
  string(7) "discard"
  [11]=>
  string(8) "buffered"
  [12]=>
  string(8) "wrappers"
  [13]=>
  string(13) "left_to_stock"
}
array(0) {
}
copy_file_range: ok
sendfile: ok
splice: ok
handover: ok
fastcgi: ok
apache: ok
spool: ok
body_file: ok
fastcgi_input: ok
mmap: ok
discard: ok
buffered: ok
wrappers: ok
int(123457)
int(123457)
bool(true)
bool(true)
int(1000)
int(124457)
bool(true)
bool(true)
int(11)
array(1) {
  ["buffered"]=>
  int(11)
}
int(0)
array(0) {
}
fastcopy_stats() expects exactly 0 arguments, 1 given
