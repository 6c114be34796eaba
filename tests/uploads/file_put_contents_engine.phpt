--TEST--
fastcopy.override=1: file_put_contents() with a stream runs on the engine in-process (flags, errors, other data types untouched)
--EXTENSIONS--
fastcopy
--INI--
fastcopy.override=1
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

$dir = fc_tmpdir();
$data = fc_bytes(300001, 3);
$src = fc_file_with($data);

function moved(callable $f): array
{
    $before = fastcopy_stats();
    $r = $f();
    $d = fc_stats_delta($before, fastcopy_stats());
    return [$r, fc_stats_path_bytes($d)];
}

function opened(string $path, int $at = 0)
{
    $h = fopen($path, 'r');
    fseek($h, $at);
    return $h;
}

// a file from its position, a pipe-less memory stream, a filtered stream
var_dump(moved(fn () => file_put_contents("$dir/a", opened($src, 1000))));
var_dump(file_get_contents("$dir/a") === substr($data, 1000));
$m = fopen('php://memory', 'w+');
fwrite($m, $data);
rewind($m);
var_dump(moved(fn () => file_put_contents("$dir/a", $m, FILE_APPEND)));
var_dump(file_get_contents("$dir/a") === substr($data, 1000) . $data, ftell($m), feof($m));
$f = opened($src);
stream_filter_append($f, 'string.toupper');
var_dump(moved(fn () => file_put_contents("$dir/b", $f, LOCK_EX)));
var_dump(file_get_contents("$dir/b") === strtoupper($data));

// LOCK_EX empties a longer file once locked ("c" mode), a context and the include path flag
file_put_contents("$dir/c", str_repeat('z', 500000));
var_dump(moved(fn () => file_put_contents("$dir/c", opened($src, 299990), LOCK_EX | FILE_USE_INCLUDE_PATH,
    stream_context_create())));
var_dump(file_get_contents("$dir/c") === substr($data, 299990));
var_dump(moved(fn () => file_put_contents("file://$dir/c", opened($src, 300001), LOCK_EX)), filesize("$dir/c"));

// refusals, in stock's order and words
var_dump(moved(fn () => file_put_contents('php://memory', opened($src), LOCK_EX)));
var_dump(moved(fn () => file_put_contents("$dir/no/such/dir", opened($src))));
$closed = opened($src);
fclose($closed);
try {
    file_put_contents("$dir/d", $closed);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
try {
    file_put_contents("$dir/d\0x", opened($src));
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
try {
    file_put_contents(data: opened($src));
} catch (ArgumentCountError $e) {
    echo $e->getMessage(), "\n";
}
var_dump(moved(fn () => file_put_contents(data: opened($src, 300000), filename: "$dir/e", flags: FILE_APPEND)));

// other data types stay with stock's handler: nothing through the engine
var_dump(moved(fn () => file_put_contents("$dir/f", 'abc')));
var_dump(moved(fn () => file_put_contents("$dir/f", ['d', 'e', 5], FILE_APPEND)));
var_dump(moved(fn () => file_put_contents("$dir/f", new class { public function __toString(): string { return 'g'; } }, FILE_APPEND)));
var_dump(file_get_contents("$dir/f"));
var_dump(moved(fn () => file_put_contents("$dir/f", new stdClass())));
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECTF--
array(2) {
  [0]=>
  int(299001)
  [1]=>
  int(299001)
}
bool(true)
array(2) {
  [0]=>
  int(300001)
  [1]=>
  int(300001)
}
bool(true)
int(300001)
bool(true)
array(2) {
  [0]=>
  int(300001)
  [1]=>
  int(300001)
}
bool(true)
array(2) {
  [0]=>
  int(11)
  [1]=>
  int(11)
}
bool(true)
array(2) {
  [0]=>
  int(0)
  [1]=>
  int(0)
}
int(0)

Warning: file_put_contents(): Exclusive locks may only be set for regular files in %s on line %d
array(2) {
  [0]=>
  bool(false)
  [1]=>
  int(0)
}

Warning: file_put_contents(%s/no/such/dir): Failed to open stream: No such file or directory in %s on line %d
array(2) {
  [0]=>
  bool(false)
  [1]=>
  int(0)
}
file_put_contents(): supplied resource is not a valid stream resource
file_put_contents(): Argument #1 ($filename) must not contain any null bytes
file_put_contents(): Argument #1 ($filename) not passed
array(2) {
  [0]=>
  int(1)
  [1]=>
  int(1)
}
array(2) {
  [0]=>
  int(3)
  [1]=>
  int(0)
}
array(2) {
  [0]=>
  int(3)
  [1]=>
  int(0)
}
array(2) {
  [0]=>
  int(1)
  [1]=>
  int(0)
}
string(7) "abcde5g"
array(2) {
  [0]=>
  bool(false)
  [1]=>
  int(0)
}
