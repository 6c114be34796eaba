--TEST--
fastcopy_stream(): copies of more than 4 GiB in one call (sparse source) return exact 64-bit counts and positions
--SKIPIF--
<?php
if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded');
if (PHP_INT_SIZE < 8) die('skip 64-bit only');
if (getenv('FASTCOPY_TEST_BIG') !== '1') die('skip slow: set FASTCOPY_TEST_BIG=1');
?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

const G4 = 4294967296;
$size = G4 + (512 << 20) + 99;
$path = fc_tmp('sparse');
$h = fopen($path, 'w+');
ftruncate($h, $size);
fseek($h, G4 + 7);
fwrite($h, 'marker');
fclose($h);

// 1. to /dev/null (a character device), everything from offset 3
$in = fopen($path, 'r');
$null = fopen('/dev/null', 'w');
// PHP's position of a character device starts at -1 on 8.2 (ftell() says false) and at 0
// on 8.4; either way the copy moves it by the count
$start = ftell($null) === false ? -1 : ftell($null);
$before = fastcopy_stats();
var_dump(fastcopy_stream($in, $null, null, 3) === $size - 3);
var_dump(ftell($in) === $size, ftell($null) === $start + $size - 3);
var_dump(array_sum(fc_paths_used(fc_stats_delta($before, fastcopy_stats()))) === $size - 3);
fclose($in);
fclose($null);

// 2. a length just past 2^32
$in = fopen($path, 'r');
$null = fopen('/dev/null', 'w');
var_dump(fastcopy_stream($in, $null, G4 + 5, 1) === G4 + 5);
var_dump(ftell($in) === G4 + 6);
fclose($in);
fclose($null);

// 3. through a unix socket to a child that counts bytes and finds the marker
[$mine, $theirs] = fc_socket_pair('pair');
$counter = <<<'PHP'
$n = 0; $found = -1; $tail = '';
while (($c = fread(STDIN, 1 << 20)) !== '' && $c !== false) {
    $p = strpos($tail . $c, 'marker');
    if ($p !== false && $found < 0) { $found = $n - strlen($tail) + $p; }
    $n += strlen($c);
    $tail = substr($c, -5);
}
echo "$n $found";
PHP;
$p = fc_spawn(fc_php_child($counter), [0 => $theirs, 1 => ['pipe', 'w']], $pipes);
fclose($theirs);
$in = fopen($path, 'r');
fread($in, 10); // read-ahead first
$ret = fastcopy_stream($in, $mine);
var_dump($ret === $size - 10, ftell($mine) === $size - 10);
stream_socket_shutdown($mine, STREAM_SHUT_WR);
fclose($mine);
[$n, $found] = explode(' ', stream_get_contents($pipes[1]));
proc_close($p);
var_dump((int)$n === $size - 10, (int)$found === G4 + 7 - 10);
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
bool(true)
bool(true)
bool(true)
