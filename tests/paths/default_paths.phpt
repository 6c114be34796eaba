--TEST--
fastcopy_stream(): each pairing takes the documented engine path (fastcopy_stats() deltas)
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

$table = [
    // src, dst, path expected to move every byte
    ['file', 'file', 'copy_file_range'],
    ['file', 'pair', 'sendfile'],
    ['file', 'tcp', 'sendfile'],
    ['file', 'unix', 'sendfile'],
    ['file', 'pipe', 'sendfile'],
    ['shm', 'file', 'sendfile'],     // other filesystem: copy_file_range says EXDEV first
    ['file', 'shm', 'sendfile'],
    ['pipe', 'file', 'splice'],
    ['pipe', 'pipe', 'splice'],
    ['pipe', 'tcp', 'splice'],
    ['pair', 'file', 'splice'],
    ['tcp', 'file', 'splice'],
    ['unix', 'pair', 'splice'],
    ['file', 'memory', 'mmap'],
    ['file', 'temp', 'mmap'],
    ['file', 'output', 'mmap'],
    ['file', 'user', 'mmap'],
    ['file', 'rot13', 'mmap'],
    ['file', 'zlib', 'mmap'],
    ['memory', 'memory', 'buffered'],
    ['memory', 'file', 'buffered'],
    ['user', 'file', 'buffered'],
    ['data', 'pipe', 'buffered'],
    ['zlib', 'file', 'buffered'],
    ['rot13', 'file', 'buffered'],
    ['pipe', 'memory', 'buffered'],
    ['tcp', 'user', 'buffered'],
];
$data = fc_bytes(300000, 42);
foreach ($table as [$s, $d, $path]) {
    $r = fc_run_copy('fastcopy_stream', $s, $d, $data, ['sync' => false]);
    $used = fc_paths_used($r['stats']);
    $ok = $r['ret'] === 300000 && $r['out'] === fc_src_logical($s, $data) && $r['diag'] === [];
    printf("%s -> %s: %s%s%s\n", $s, $d, implode(',', array_keys($used)),
        $used === [$path => 300000] ? '' : " (expected $path; stats " . json_encode($used) . ')',
        $ok ? '' : ' COPY WRONG: ' . json_encode(['ret' => $r['ret'], 'diag' => $r['diag'], 'len' => strlen($r['out'])]));
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
file -> file: copy_file_range
file -> pair: sendfile
file -> tcp: sendfile
file -> unix: sendfile
file -> pipe: sendfile
shm -> file: sendfile
file -> shm: sendfile
pipe -> file: splice
pipe -> pipe: splice
pipe -> tcp: splice
pair -> file: splice
tcp -> file: splice
unix -> pair: splice
file -> memory: mmap
file -> temp: mmap
file -> output: mmap
file -> user: mmap
file -> rot13: mmap
file -> zlib: mmap
memory -> memory: buffered
memory -> file: buffered
user -> file: buffered
data -> pipe: buffered
zlib -> file: buffered
rot13 -> file: buffered
pipe -> memory: buffered
tcp -> user: buffered
