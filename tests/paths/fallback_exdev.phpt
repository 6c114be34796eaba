--TEST--
fastcopy_stream(): cross-filesystem copies (tmpfs <-> disk) fall back from copy_file_range on EXDEV
--SKIPIF--
<?php
if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded');
if (!is_dir('/dev/shm') || !is_writable('/dev/shm')) die('skip no /dev/shm');
if (stat('/dev/shm')['dev'] === stat(sys_get_temp_dir())['dev']) die('skip temp dir is on /dev/shm');
// Kernels 5.3 to 5.18 (without 5.19's change, which stable kernels took) copy across
// filesystems themselves: no EXDEV to fall back from (fc_cfr_across()).
require __DIR__ . '/../inc/streams.inc';
ini_set('fastcopy.disable', '');
$in = fopen(fc_file_with(fc_bytes(1 << 16), 'probe', '/dev/shm'), 'r');
$out = fopen(fc_tmp('probe'), 'w');
$before = fastcopy_stats();
fastcopy_stream($in, $out);
$cfr = fc_cfr_across(fc_stats_delta($before, fastcopy_stats()));
fclose($in);
fclose($out);
fc_clean();
if ($cfr === 'copied') die('skip this kernel copies across filesystems with copy_file_range');
?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

$data = fc_bytes(1 << 20, 9) . 'tail';
$n = strlen($data);
foreach ([['/dev/shm', null], [null, '/dev/shm']] as [$srcBase, $dstBase]) {
    echo ($srcBase ? 'tmpfs' : 'disk'), ' -> ', ($dstBase ? 'tmpfs' : 'disk'), "\n";
    foreach (['', 'sendfile', 'sendfile,mmap,splice'] as $disable) {
        ini_set('fastcopy.disable', $disable);
        $src = fc_file_with($data, 'src', $srcBase);
        $dst = fc_tmp('dst', $dstBase);
        $in = fopen($src, 'r');
        $out = fopen($dst, 'w');
        fread($in, 100);        // read-ahead: 100 consumed, more buffered by PHP
        $before = fastcopy_stats();
        $ret = fastcopy_stream($in, $out, $n, 50);   // offset re-positions
        $d = fc_stats_delta($before, fastcopy_stats());
        $pos = [ftell($in), ftell($out)];
        fclose($in);
        fclose($out);
        $used = fc_paths_used($d);
        printf("  disable=%s: ret=%d pos=%s same=%s cfr_exdev=%s cfr_bytes=%d total=%d%s\n",
            $disable === '' ? '-' : $disable, $ret, json_encode($pos),
            var_export(file_get_contents($dst) === substr($data, 50), true),
            var_export(($d['copy_file_range']['fallbacks']['EXDEV'] ?? 0) >= 1, true),
            $used['copy_file_range'] ?? 0, array_sum($used),
            $disable === 'sendfile' && isset($used['sendfile']) ? ' SENDFILE USED WHILE DISABLED' : '');
    }
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
tmpfs -> disk
  disable=-: ret=1048530 pos=[1048580,1048530] same=true cfr_exdev=true cfr_bytes=0 total=1048530
  disable=sendfile: ret=1048530 pos=[1048580,1048530] same=true cfr_exdev=true cfr_bytes=0 total=1048530
  disable=sendfile,mmap,splice: ret=1048530 pos=[1048580,1048530] same=true cfr_exdev=true cfr_bytes=0 total=1048530
disk -> tmpfs
  disable=-: ret=1048530 pos=[1048580,1048530] same=true cfr_exdev=true cfr_bytes=0 total=1048530
  disable=sendfile: ret=1048530 pos=[1048580,1048530] same=true cfr_exdev=true cfr_bytes=0 total=1048530
  disable=sendfile,mmap,splice: ret=1048530 pos=[1048580,1048530] same=true cfr_exdev=true cfr_bytes=0 total=1048530
