--TEST--
fastcopy_stream(): a destination write that fails (EFBIG from RLIMIT_FSIZE) reports the stream's own write notice and returns false
--SKIPIF--
<?php
if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded');
if (!function_exists('posix_setrlimit') || !function_exists('pcntl_signal')) die('skip posix and pcntl needed');
?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

pcntl_signal(SIGXFSZ, SIG_IGN);
$limit = 1 << 20;

$data = fc_bytes(3 << 20, 21);
foreach ([['memory', ''], ['file', ''], ['file', 'copy_file_range,sendfile,splice,mmap'], ['pipe', ''], ['user', '']] as [$srcKind, $disable]) {
    foreach ([0, 500000] as $prefill) {
        ini_set('fastcopy.disable', $disable);
        posix_setrlimit(POSIX_RLIMIT_FSIZE, POSIX_RLIMIT_INFINITY, POSIX_RLIMIT_INFINITY);
        $src = fc_make_source($srcKind, $data, false);
        posix_setrlimit(POSIX_RLIMIT_FSIZE, $limit, POSIX_RLIMIT_INFINITY);
        $dstPath = fc_tmp('dst');
        $dst = fopen($dstPath, 'w');
        if ($prefill) {
            fwrite($dst, substr($data, 0, $prefill));   // the copy then hits the limit mid-write
            fc_readahead($src->stream, ['exact', $prefill]);
        }
        $diag = [];
        set_error_handler(function ($no, $msg) use (&$diag) { $diag[] = $no . ':' . preg_replace('/ of \d+ bytes/', ' of N bytes', $msg); return true; });
        $ret = fastcopy_stream($src->stream, $dst);
        restore_error_handler();
        fclose($dst);
        $src->close();
        clearstatcache();
        $got = file_get_contents($dstPath);
        // a write that is cut short and then fails reports once per failing
        // write() call (stock does the same, twice when a partial write
        // precedes the failure), so only the kind of notice is compared
        printf("%s%s prefill=%d: ret=%s notices=%s file_is_prefix_up_to_limit=%s\n", $srcKind, $disable ? ' (buffered)' : '',
            $prefill, var_export($ret, true), json_encode(array_values(array_unique($diag))),
            var_export(strlen($got) === $limit && $got === substr($data, 0, $limit), true));
    }
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
memory prefill=0: ret=false notices=["8:fastcopy_stream(): Write of N bytes failed with errno=27 File too large"] file_is_prefix_up_to_limit=true
memory prefill=500000: ret=false notices=["8:fastcopy_stream(): Write of N bytes failed with errno=27 File too large"] file_is_prefix_up_to_limit=true
file prefill=0: ret=false notices=["8:fastcopy_stream(): Write of N bytes failed with errno=27 File too large"] file_is_prefix_up_to_limit=true
file prefill=500000: ret=false notices=["8:fastcopy_stream(): Write of N bytes failed with errno=27 File too large"] file_is_prefix_up_to_limit=true
file (buffered) prefill=0: ret=false notices=["8:fastcopy_stream(): Write of N bytes failed with errno=27 File too large"] file_is_prefix_up_to_limit=true
file (buffered) prefill=500000: ret=false notices=["8:fastcopy_stream(): Write of N bytes failed with errno=27 File too large"] file_is_prefix_up_to_limit=true
pipe prefill=0: ret=false notices=["8:fastcopy_stream(): Write of N bytes failed with errno=27 File too large"] file_is_prefix_up_to_limit=true
pipe prefill=500000: ret=false notices=["8:fastcopy_stream(): Write of N bytes failed with errno=27 File too large"] file_is_prefix_up_to_limit=true
user prefill=0: ret=false notices=["8:fastcopy_stream(): Write of N bytes failed with errno=27 File too large"] file_is_prefix_up_to_limit=true
user prefill=500000: ret=false notices=["8:fastcopy_stream(): Write of N bytes failed with errno=27 File too large"] file_is_prefix_up_to_limit=true
