--TEST--
Integration: fastcopy.override as a comma list puts only the named built-ins on the engine (CLI)
--SKIPIF--
<?php require __DIR__ . '/harness.inc'; fcint_skipif([]); ?>
--FILE--
<?php
require __DIR__ . '/harness.inc';

$file = fcint_data_file(FCINT_ODD_SIZE);
$tmp = fcint_tmpdir('list');
$on = in_array('override', fcint_modes(), true);

// Each built-in once per process; the engine's counters must move for exactly the named ones.
$fns = ['readfile' => 'readfile', 'fpassthru' => 'fpassthru', 'scts-file' => 'stream_copy_to_stream', 'copy' => 'copy'];
foreach (['readfile', 'fpassthru,copy', ' stream_copy_to_stream , readfile ', 'all'] as $list) {
    $before = $GLOBALS['fcint_failures'];
    $named = $list === 'all' ? array_values($fns) : array_map('trim', explode(',', $list));
    foreach ($on ? $fns : [] as $fn => $builtin) {
        $stats = "$tmp/stats.json";
        $dst = "$tmp/out.bin";
        @unlink($dst);
        // The later -d wins over fcint_ini_args()'s fastcopy.override=1.
        $cmd = array_merge([PHP_BINARY, '-n'], fcint_ini_args('override'), ['-d', "fastcopy.override=$list",
            __DIR__ . '/cli_emit.inc', $fn, $file['path'], $stats]);
        if (in_array($fn, ['copy', 'scts-file'], true)) {
            $cmd[] = $dst;
            $r = fcint_run($cmd);
            $sha = is_file($dst) ? hash_file('sha256', $dst) : '';
        } else {
            $r = fcint_run_hash_stdout($cmd);
            $sha = $r['sha256'];
        }
        $label = "override=\"$list\", $builtin";
        if ($r['exit'] !== 0 || $r['stderr'] !== '' || $sha !== $file['sha256']) {
            fcint_fail("$label: exit {$r['exit']}, stderr " . json_encode(trim($r['stderr'])) . ", sha256 $sha");
            continue;
        }
        $st = json_decode((string) file_get_contents($stats), true)['stats'] ?? null;
        [, $per, $all] = fchttp_fast_bytes([], is_array($st) ? $st : []);
        $want = in_array($builtin, $named, true);
        if ($want && $all < $file['size'] - FCHTTP_STATS_SLACK) {
            fcint_fail("$label: named but the engine counted $all bytes: " . json_encode($per));
        } elseif (!$want && $all !== 0) {
            fcint_fail("$label: not named but the engine counted $all bytes: " . json_encode($per));
        }
    }
    if ($GLOBALS['fcint_failures'] === $before) {
        echo "list \"$list\": ok\n";
    }
}
@unlink("$tmp/out.bin");
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
list "readfile": ok
list "fpassthru,copy": ok
list " stream_copy_to_stream , readfile ": ok
list "all": ok
done
