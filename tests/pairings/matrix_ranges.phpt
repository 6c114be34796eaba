--TEST--
fastcopy_stream(): every source kind x every destination kind after read-ahead, with length and offset
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

$data = fc_text(120000, 23);
$variants = [
    // label, readahead, length, offset (offset only applied to seekable sources)
    ['fgets, len=60000', ['fgets'], 60000, 0],
    ['exact 1000, rest', ['exact', 1000], null, 0],
    ['fgetc, len=1', ['fgetc'], 1, 0],
    ['offset 50001, len=65536', null, 65536, 50001],
    ['exact 5000, offset 3 back, len=100000', ['exact', 5000], 100000, 3],
];
foreach ($variants as [$label, $ra, $len, $off]) {
    echo "== $label ==\n";
    foreach (FC_SRC_KINDS as $s) {
        if ($s === 'b64' && ($off > 0 || $ra !== null)) {
            continue; // positions of base64-encoded reads do not map back to the data
        }
        $o = in_array($s, FC_SRC_SEEKABLE, true) ? $off : 0;
        $bad = [];
        foreach (FC_DST_KINDS as $d) {
            $r = fc_run_copy('fastcopy_stream', $s, $d, $data, ['sync' => false, 'readahead' => $ra, 'length' => $len, 'offset' => $o]);
            $exp = fc_expected($s, $d, fc_src_logical($s, $data), strlen($r['ahead']), $len, $o);
            $exp['diag'] = [];
            if ($p = fc_diff_results($exp, $r)) {
                $bad[] = "  $s -> $d: " . implode('; ', $p);
            }
        }
        printf("%s: %s\n", $s, $bad ? "FAILED\n" . implode("\n", $bad) : 'ok');
    }
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
== fgets, len=60000 ==
file: ok
shm: ok
memory: ok
temp: ok
temp_file: ok
data: ok
user: ok
rot13: ok
zlib: ok
pipe: ok
pair: ok
tcp: ok
unix: ok
== exact 1000, rest ==
file: ok
shm: ok
memory: ok
temp: ok
temp_file: ok
data: ok
user: ok
rot13: ok
zlib: ok
pipe: ok
pair: ok
tcp: ok
unix: ok
== fgetc, len=1 ==
file: ok
shm: ok
memory: ok
temp: ok
temp_file: ok
data: ok
user: ok
rot13: ok
zlib: ok
pipe: ok
pair: ok
tcp: ok
unix: ok
== offset 50001, len=65536 ==
file: ok
shm: ok
memory: ok
temp: ok
temp_file: ok
data: ok
user: ok
rot13: ok
zlib: ok
pipe: ok
pair: ok
tcp: ok
unix: ok
== exact 5000, offset 3 back, len=100000 ==
file: ok
shm: ok
memory: ok
temp: ok
temp_file: ok
data: ok
user: ok
rot13: ok
zlib: ok
pipe: ok
pair: ok
tcp: ok
unix: ok
