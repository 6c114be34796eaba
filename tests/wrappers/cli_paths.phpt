--TEST--
wrappers: a wrapped file goes to a socket by sendfile, to a pipe by sendfile or splice, to a wrapped file by copy_file_range; fastcopy.disable=wrappers puts the same copies back on the buffered path with the same results
--DESCRIPTION--
4 MiB and 3 bytes in a file behind icewind/streams 0.7.7's CallbackWrapper (close
callback only, or nested in another), copied whole, after an fgets() (the
wrapper's read buffer goes first), and as a range (fseek() then a $length, as
sabre/http does). Each copy is compared with stock's as in the differential tests
here (return value, bytes, positions, next reads, seeks, warnings, close
callbacks), and fastcopy_stats() must show the kernel path carrying all the bytes
the wrapper had not read ahead, and the wrappers step counting them. With
fastcopy.disable=wrappers the same copies go through the wrapper on the buffered
path, nothing is counted under wrappers, and the results are the same again.
--SKIPIF--
<?php
require __DIR__ . '/../inc/wrappers.inc';
fcw_skipif();
if (PHP_OS_FAMILY !== 'Linux') die('skip Linux only');
?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/wrappers.inc';

$size = (4 << 20) + 3;
$pairs = [
    'wrapped file -> socket' => [['cb', 'file'], [null, 'pair'], ['sendfile']],
    'wrapped file -> pipe' => [['cb', 'file'], [null, 'pipe'], ['sendfile', 'splice']],
    'nested wrapped file -> socket' => [['nested', 'file'], [null, 'pair'], ['sendfile']],
    'wrapped file -> wrapped file' => [['cb', 'file'], ['cb', 'file'], ['copy_file_range']],
    'nested wrapped file -> nested wrapped file' => [['nested', 'file'], ['nested', 'file'], ['copy_file_range']],
    'file -> wrapped file' => [[null, 'file'], ['cb', 'file'], ['copy_file_range']],
];
$shapes = [
    'whole' => ['before' => null],
    'after fgets()' => ['before' => ['fgets']],
    'range' => ['before' => ['seek', 1000003], 'length' => 2000000],
];
foreach ($pairs as $name => [$src, $dst, $paths]) {
    foreach ($shapes as $shape => $how) {
        $c = $how + ['src' => $src, 'dst' => $dst, 'size' => $size, 'text' => $shape === 'after fgets()', 'seed' => 7,
            'next' => ['fread', 100], 'seek' => 12345, 'disable' => ''];
        $stock = fcw_run('stream_copy_to_stream', $c);
        $fast = fcw_run('fastcopy_stream', $c);
        $problems = fcw_compare($c, $stock, $fast);

        // the kernel path moved everything but the wrapper's read-ahead (a plain
        // file's is dropped and read again by the kernel)
        $ahead = $src[0] !== null && $c['before'] === ['fgets'] ? $fast['buffered'][0] : 0;
        $used = fc_paths_used($fast['stats']);
        $onPath = array_sum(array_intersect_key($used, array_flip($paths)));
        if ($onPath !== $fast['ret'] - $ahead) {
            $problems[] = sprintf('%s moved %d of %d bytes: %s', implode('/', $paths), $onPath, $fast['ret'] - $ahead,
                json_encode($used));
        }

        // switched off: the same copy through the wrapper, with the same results
        $off = fcw_run('fastcopy_stream', ['disable' => 'wrappers'] + $c);
        $problems = array_merge($problems, array_map(fn($p) => "disable=wrappers: $p", fcw_compare(['disable' => 'wrappers'] + $c, $stock, $off)));
        foreach (['ret', 'out', 'src_pos', 'dst_pos', 'next', 'seek', 'dst_readback'] as $f) {
            if (($off[$f] ?? null) !== ($fast[$f] ?? null)) {
                $problems[] = "disable=wrappers: $f differs from the seen-through copy";
            }
        }
        $offPaths = fc_paths_used($off['stats']);
        if ($src[0] !== null && array_keys($offPaths) !== ['buffered'] || ($off['stats']['wrappers']['calls'] ?? -1) !== 0) {
            $problems[] = 'disable=wrappers: ' . json_encode([$offPaths, $off['stats']['wrappers']]);
        }
        printf("%s, %s: %s\n", $name, $shape, $problems ? "\n    " . implode("\n    ", $problems)
            : sprintf('%d bytes, as stock; %s', $fast['ret'], count($paths) > 1 ? implode(' or ', $paths) : $paths[0]));
    }
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
wrapped file -> socket, whole: 4194307 bytes, as stock; sendfile
wrapped file -> socket, after fgets(): 4194292 bytes, as stock; sendfile
wrapped file -> socket, range: 2000000 bytes, as stock; sendfile
wrapped file -> pipe, whole: 4194307 bytes, as stock; sendfile or splice
wrapped file -> pipe, after fgets(): 4194292 bytes, as stock; sendfile or splice
wrapped file -> pipe, range: 2000000 bytes, as stock; sendfile or splice
nested wrapped file -> socket, whole: 4194307 bytes, as stock; sendfile
nested wrapped file -> socket, after fgets(): 4194292 bytes, as stock; sendfile
nested wrapped file -> socket, range: 2000000 bytes, as stock; sendfile
wrapped file -> wrapped file, whole: 4194307 bytes, as stock; copy_file_range
wrapped file -> wrapped file, after fgets(): 4194292 bytes, as stock; copy_file_range
wrapped file -> wrapped file, range: 2000000 bytes, as stock; copy_file_range
nested wrapped file -> nested wrapped file, whole: 4194307 bytes, as stock; copy_file_range
nested wrapped file -> nested wrapped file, after fgets(): 4194292 bytes, as stock; copy_file_range
nested wrapped file -> nested wrapped file, range: 2000000 bytes, as stock; copy_file_range
file -> wrapped file, whole: 4194307 bytes, as stock; copy_file_range
file -> wrapped file, after fgets(): 4194292 bytes, as stock; copy_file_range
file -> wrapped file, range: 2000000 bytes, as stock; copy_file_range
