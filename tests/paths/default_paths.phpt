--TEST--
fastcopy_stream(): each pairing takes the documented engine path (fastcopy_stats() deltas); every socket, a TCP peer on this host too, the kernel's pages (fastcopy.same_host=zerocopy, the default)
--SKIPIF--
<?php
if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded');
if (!is_dir('/dev/shm') || !is_writable('/dev/shm')) die('skip no /dev/shm');
?>
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
    ['shm', 'file', null],           // see $acrossOk
    ['file', 'shm', null],
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
/*
 * Between /dev/shm and the temp dir the path depends on where the temp dir is:
 * on the same filesystem copy_file_range moves the bytes; on another one
 * copy_file_range says EXDEV and sendfile moves them, unless the kernel copies
 * across filesystems itself (fc_cfr_across()), when copy_file_range does. Such a
 * row prints the same line wherever it runs, and its expectation only when it fails.
 */
const ACROSS = 'copy_file_range, or sendfile after EXDEV across filesystems';
$shmApart = stat('/dev/shm')['dev'] !== stat(sys_get_temp_dir())['dev'];
$acrossOk = function (array $used, ?array $delta) use ($shmApart): bool {
    if (!$shmApart) {
        return $used === ['copy_file_range' => 300000];
    }
    $cfr = fc_cfr_across($delta);
    return ($cfr === 'EXDEV' && $used === ['sendfile' => 300000])
        || ($cfr === 'copied' && $used === ['copy_file_range' => 300000]);
};
$data = fc_bytes(300000, 42);
foreach ($table as [$s, $d, $path]) {
    $r = fc_run_copy('fastcopy_stream', $s, $d, $data, ['sync' => false]);
    $used = fc_paths_used($r['stats']);
    $ok = $r['ret'] === 300000 && $r['out'] === fc_src_logical($s, $data) && $r['diag'] === [];
    if ($path === null) {
        $shown = $acrossOk($used, $r['stats']) ? ACROSS : sprintf('%s (expected %s; stats %s, copy_file_range %s)',
            implode(',', array_keys($used)), $shmApart ? 'two filesystems' : 'one filesystem', json_encode($used),
            fc_cfr_across($r['stats']));
    } else {
        $shown = implode(',', array_keys($used)) . ($used === [$path => 300000] ? '' : " (expected $path; stats " . json_encode($used) . ')');
    }
    printf("%s -> %s: %s%s\n", $s, $d, $shown,
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
shm -> file: copy_file_range, or sendfile after EXDEV across filesystems
file -> shm: copy_file_range, or sendfile after EXDEV across filesystems
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
