--TEST--
fastcopy_stream(): blocking socket destination whose peer stops reading, with stream_set_timeout(1): notice, false and timed_out, like stock
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
fastcopy.disable=
default_socket_timeout=60
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

$size = 8 << 20;
$data = fc_bytes($size, 5);
foreach ([['file', 'pair'], ['memory', 'pair'], ['pipe', 'tcp']] as [$srcKind, $dstKind]) {
    echo "== $srcKind -> $dstKind ==\n";
    $src = fc_make_source($srcKind, $data, false);
    [$dst, $peer] = fc_socket_pair($dstKind);
    stream_set_timeout($dst, 1);
    $t = microtime(true);
    var_dump(fastcopy_stream($src->stream, $dst));
    $elapsed = microtime(true) - $t;
    echo 'timed_out: ', var_export(stream_get_meta_data($dst)['timed_out'], true), "\n";
    echo 'returned within 30s: ', var_export($elapsed < 30, true), "\n";
    $sent = ftell($dst);
    stream_set_blocking($peer, false);
    $got = '';
    while (($c = fread($peer, 1 << 20)) !== '' && $c !== false) {
        $got .= $c;
    }
    echo 'some bytes went out: ', var_export($sent > 0, true), "\n";
    echo 'peer got exactly ftell($dst) bytes of the source: ', var_export($got === substr($data, 0, $sent), true), "\n";
    fclose($dst);
    fclose($peer);
    $src->close();
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECTF--
== file -> pair ==

Notice: fastcopy_stream(): Send of %d bytes failed with errno=11 Resource temporarily unavailable in %s on line %d
bool(false)
timed_out: true
returned within 30s: true
some bytes went out: true
peer got exactly ftell($dst) bytes of the source: true
== memory -> pair ==

Notice: fastcopy_stream(): Send of %d bytes failed with errno=11 Resource temporarily unavailable in %s on line %d
bool(false)
timed_out: true
returned within 30s: true
some bytes went out: true
peer got exactly ftell($dst) bytes of the source: true
== pipe -> tcp ==

Notice: fastcopy_stream(): Send of %d bytes failed with errno=11 Resource temporarily unavailable in %s on line %d
bool(false)
timed_out: true
returned within 30s: true
some bytes went out: true
peer got exactly ftell($dst) bytes of the source: true
