--TEST--
fastcopy_stream(): O_APPEND destination (kernel paths refuse it) falls back and appends correctly
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

$data = fc_bytes(200001, 5);
foreach (['file', 'pipe', 'memory'] as $srcKind) {
    foreach (['a', 'ab', 'a+'] as $mode) {
        foreach ([[null, 0], [1000, 10]] as [$len, $off]) {
            if ($srcKind === 'pipe' && $off > 0) {
                $off = 0;
            }
            foreach (['stock' => 'stream_copy_to_stream', 'fast' => 'fastcopy_stream'] as $who => $fn) {
                $path = fc_file_with("prefix\n", 'dst-app');
                $src = fc_make_source($srcKind, $data);
                $out = fopen($path, $mode);
                $before = fastcopy_stats();
                $ret = $fn($src->stream, $out, $len, $off);
                $d = fc_stats_delta($before, fastcopy_stats());
                $res[$who] = [$ret, ftell($src->stream), ftell($out)];
                fclose($out);
                $src->close();
                $res[$who][] = md5(file_get_contents($path));
                $stats[$who] = $d;
            }
            $expectLen = $len ?? strlen($data);
            $content = "prefix\n" . substr($data, $off, $expectLen);
            $ok = $res['fast'] === $res['stock'] && $res['fast'][0] === $expectLen && $res['fast'][3] === md5($content);
            $used = fc_paths_used($stats['fast']);
            $fell = $srcKind === 'file' ? (fc_fallbacks($stats['fast'], 'copy_file_range') >= 1 ? ' cfr fell back;' : ' NO CFR FALLBACK RECORDED;') : '';
            printf("%s -> '%s' len=%s off=%d: ret=%d dstpos=%s %s;%s kernel bytes: cfr=%d sendfile=%d splice=%d, total=%d\n",
                $srcKind, $mode, var_export($len, true), $off, $res['fast'][0], var_export($res['fast'][2], true),
                $ok ? 'same as stock' : 'MISMATCH ' . json_encode($res), $fell,
                $used['copy_file_range'] ?? 0, $used['sendfile'] ?? 0, $used['splice'] ?? 0, array_sum($used));
        }
    }
}

// appending twice keeps both copies, in order
$path = fc_file_with('', 'twice');
$src = fc_file_with('abc', 'src3');
for ($i = 0; $i < 2; $i++) {
    $in = fopen($src, 'r');
    $out = fopen($path, 'a');
    var_dump(fastcopy_stream($in, $out));
    fclose($in);
    fclose($out);
}
var_dump(file_get_contents($path));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
file -> 'a' len=NULL off=0: ret=200001 dstpos=200001 same as stock; cfr fell back; kernel bytes: cfr=0 sendfile=0 splice=0, total=200001
file -> 'a' len=1000 off=10: ret=1000 dstpos=1000 same as stock; cfr fell back; kernel bytes: cfr=0 sendfile=0 splice=0, total=1000
file -> 'ab' len=NULL off=0: ret=200001 dstpos=200001 same as stock; cfr fell back; kernel bytes: cfr=0 sendfile=0 splice=0, total=200001
file -> 'ab' len=1000 off=10: ret=1000 dstpos=1000 same as stock; cfr fell back; kernel bytes: cfr=0 sendfile=0 splice=0, total=1000
file -> 'a+' len=NULL off=0: ret=200001 dstpos=200001 same as stock; cfr fell back; kernel bytes: cfr=0 sendfile=0 splice=0, total=200001
file -> 'a+' len=1000 off=10: ret=1000 dstpos=1000 same as stock; cfr fell back; kernel bytes: cfr=0 sendfile=0 splice=0, total=1000
pipe -> 'a' len=NULL off=0: ret=200001 dstpos=200001 same as stock; kernel bytes: cfr=0 sendfile=0 splice=0, total=200001
pipe -> 'a' len=1000 off=0: ret=1000 dstpos=1000 same as stock; kernel bytes: cfr=0 sendfile=0 splice=0, total=1000
pipe -> 'ab' len=NULL off=0: ret=200001 dstpos=200001 same as stock; kernel bytes: cfr=0 sendfile=0 splice=0, total=200001
pipe -> 'ab' len=1000 off=0: ret=1000 dstpos=1000 same as stock; kernel bytes: cfr=0 sendfile=0 splice=0, total=1000
pipe -> 'a+' len=NULL off=0: ret=200001 dstpos=200001 same as stock; kernel bytes: cfr=0 sendfile=0 splice=0, total=200001
pipe -> 'a+' len=1000 off=0: ret=1000 dstpos=1000 same as stock; kernel bytes: cfr=0 sendfile=0 splice=0, total=1000
memory -> 'a' len=NULL off=0: ret=200001 dstpos=200001 same as stock; kernel bytes: cfr=0 sendfile=0 splice=0, total=200001
memory -> 'a' len=1000 off=10: ret=1000 dstpos=1000 same as stock; kernel bytes: cfr=0 sendfile=0 splice=0, total=1000
memory -> 'ab' len=NULL off=0: ret=200001 dstpos=200001 same as stock; kernel bytes: cfr=0 sendfile=0 splice=0, total=200001
memory -> 'ab' len=1000 off=10: ret=1000 dstpos=1000 same as stock; kernel bytes: cfr=0 sendfile=0 splice=0, total=1000
memory -> 'a+' len=NULL off=0: ret=200001 dstpos=200001 same as stock; kernel bytes: cfr=0 sendfile=0 splice=0, total=200001
memory -> 'a+' len=1000 off=10: ret=1000 dstpos=1000 same as stock; kernel bytes: cfr=0 sendfile=0 splice=0, total=1000
int(3)
int(3)
string(6) "abcabc"
