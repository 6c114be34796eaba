--TEST--
fastcopy_stream(): strict_types coercion rules are those of stream_copy_to_stream()
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--FILE--
<?php
declare(strict_types=1);

function try_call(string $fn, array $args): string
{
    $from = fopen('php://memory', 'w+');
    fwrite($from, 'abcdef');
    rewind($from);
    $to = fopen('php://memory', 'w+');
    try {
        $r = $fn($from, $to, ...$args);
        rewind($to);
        return var_export($r, true) . ' ' . var_export(stream_get_contents($to), true);
    } catch (Throwable $e) {
        return get_class($e) . ': ' . $e->getMessage();
    }
}

foreach ([['3'], [3.0], [null, '1'], [true], [null, 2], [-1, 1], [2, 1]] as $args) {
    $f = try_call('fastcopy_stream', $args);
    $s = str_replace('stream_copy_to_stream()', 'fastcopy_stream()', try_call('stream_copy_to_stream', $args));
    echo json_encode($args), ': ', $f, $f === $s ? '' : "  MISMATCH stock: $s", "\n";
    if ($args === [true]) {
        // PHP 8.3 on names the value (true given) where 8.2 names its type (bool given)
        $given = PHP_VERSION_ID >= 80300 ? 'true given' : 'bool given';
        echo '  the running PHP\'s wording: ', str_ends_with($f, $given) ? 'yes' : "no, expected '$given'", "\n";
    }
}
?>
--EXPECTF--
["3"]: TypeError: fastcopy_stream(): Argument #3 ($length) must be of type ?int, string given
[3]: TypeError: fastcopy_stream(): Argument #3 ($length) must be of type ?int, float given
[null,"1"]: TypeError: fastcopy_stream(): Argument #4 ($offset) must be of type int, string given
[true]: TypeError: fastcopy_stream(): Argument #3 ($length) must be of type ?int, %s given
  the running PHP's wording: yes
[null,2]: 4 'cdef'
[-1,1]: 5 'bcdef'
[2,1]: 2 'bc'
