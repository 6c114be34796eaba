--TEST--
fastcopy_stream(): every source kind x every destination kind, full copy (bytes and both positions)
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

$data = fc_bytes(300007, 17);
foreach (FC_SRC_KINDS as $s) {
    $bad = [];
    foreach (FC_DST_KINDS as $d) {
        $r = fc_run_copy('fastcopy_stream', $s, $d, $data, ['sync' => false]);
        $exp = fc_expected($s, $d, fc_src_logical($s, $data), 0, null, 0);
        $exp['diag'] = [];
        if ($p = fc_diff_results($exp, $r)) {
            $bad[] = "  $s -> $d: " . implode('; ', $p);
        }
    }
    printf("%s -> %d destinations: %s\n", $s, count(FC_DST_KINDS), $bad ? "FAILED\n" . implode("\n", $bad) : 'ok');
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
file -> 15 destinations: ok
shm -> 15 destinations: ok
memory -> 15 destinations: ok
temp -> 15 destinations: ok
temp_file -> 15 destinations: ok
data -> 15 destinations: ok
user -> 15 destinations: ok
rot13 -> 15 destinations: ok
b64 -> 15 destinations: ok
zlib -> 15 destinations: ok
pipe -> 15 destinations: ok
pair -> 15 destinations: ok
tcp -> 15 destinations: ok
unix -> 15 destinations: ok
