--TEST--
Integration: readfile()/fpassthru()/stream_copy_to_stream()/copy() under the CLI, stdout to a pipe and to a file, stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/harness.inc'; fcint_skipif([]);
?>
--FILE--
<?php
require __DIR__ . '/harness.inc';

$files = ['300M' => fcint_blob(), 'odd' => fcint_data_file(FCINT_ODD_SIZE), 'empty' => fcint_data_file(0)];
$tmp = fcint_tmpdir('cli');
$modes = fcint_modes();

function cli_run(string $mode, string $fn, array $file, string $sink, string $tmp): array
{
    $stats = "$tmp/stats-$mode.json";
    $dst = "$tmp/out-$mode.bin";
    @unlink($stats);
    @unlink($dst);
    $cmd = array_merge([PHP_BINARY, '-n'], fcint_ini_args($mode), [__DIR__ . '/cli_emit.inc', $fn, $file['path'], $stats]);
    if ($sink === 'dst') {
        $cmd[] = $dst;
        $r = fcint_run($cmd);
        $r['sha256'] = is_file($dst) ? hash_file('sha256', $dst) : '';
        $r['bytes'] = is_file($dst) ? filesize($dst) : -1;
    } elseif ($sink === 'pipe') {
        $r = fcint_run_hash_stdout($cmd);
    } else {
        $r = fcint_run($cmd, $dst);
        $r['sha256'] = hash_file('sha256', $dst);
        $r['bytes'] = filesize($dst);
    }
    @unlink($dst);
    $r['side'] = json_decode((string) @file_get_contents($stats), true);
    return $r;
}

$cases = [
    ['readfile', 'pipe'], ['readfile', 'file'],
    ['fpassthru', 'pipe'], ['fpassthru', 'file'],
    ['scts', 'pipe'], ['scts-stdout', 'pipe'], ['scts-stdout', 'file'],
    ['scts-file', 'dst'], ['copy', 'dst'],
];
foreach ($cases as [$fn, $sink]) {
    $before = $GLOBALS['fcint_failures'];
    foreach ($files as $fname => $file) {
        $res = [];
        foreach ($modes as $mode) {
            $label = "$fn to $sink, $fname [$mode]";
            $r = $res[$mode] = cli_run($mode, $fn, $file, $sink, $tmp);
            if ($r['exit'] !== 0 || $r['stderr'] !== '') {
                fcint_fail("$label: exit {$r['exit']}, stderr " . json_encode(trim($r['stderr'])));
            }
            if ($r['bytes'] !== $file['size'] || $r['sha256'] !== $file['sha256']) {
                fcint_fail("$label: got {$r['bytes']} bytes sha256 {$r['sha256']}, want {$file['size']} {$file['sha256']}");
            }
            $want = $fn === 'copy' ? true : $file['size'];
            if (($r['side']['returned'] ?? null) !== $want) {
                fcint_fail("$label: returned " . json_encode($r['side']['returned'] ?? null) . ', want ' . json_encode($want));
            }
            if ($mode === 'override' && $file['size'] > 0) {
                // Every path's counters start at zero in a fresh CLI process.
                $st = $r['side']['stats'] ?? null;
                if (!is_array($st)) {
                    fcint_fail("$label: no fastcopy_stats()");
                } else {
                    fchttp_assert_counted($label, [], $st, $file['size'], false);
                }
            }
        }
    }
    if ($GLOBALS['fcint_failures'] === $before) {
        echo "$fn to $sink: ok\n";
    }
}
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
readfile to pipe: ok
readfile to file: ok
fpassthru to pipe: ok
fpassthru to file: ok
scts to pipe: ok
scts-stdout to pipe: ok
scts-stdout to file: ok
scts-file to dst: ok
copy to dst: ok
done
