--TEST--
Uploads with the body handed over as the file nginx stored, faults made to happen in the override's worker (strace -e inject): the stored file ending early, a copy interrupted by a signal, the destination failing (EIO, ENOSPC), the kernel refusing the spool's copy, the spool's descriptor not taking the stored file; each request's report is stock's, and fastcopy_stats() says why body_file handed over
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/../integration/harness.inc';
if (getenv('USE_ZEND_ALLOC') === '0' && getenv('ZEND_DONT_UNLOAD_MODULES') === '1') {
    die('skip under valgrind (run-tests.php -m): see fpm_body_file_valgrind.phpt');
}
require __DIR__ . '/filesystems.inc';
fs_skipif(['strace']);
?>
--FILE--
<?php
require __DIR__ . '/fpm.inc';
require __DIR__ . '/filesystems.inc';

$tmp = fcint_tmpdir('uploads-bodyfile-faults');
$servers = fcfpm_stacks(fcup_fpm_docroot($tmp), $tmp, ['keepalive' => 2,
    'nginx' => ['client_max_body_size 0;', ...fcup_body_file_nginx()]]);
$body = fcup_body((2 << 20) + 4099);
$whole = [['copy', null, 0, 'file'], ['rewind'], ['get']];
$part = [['copy', 100001, 0, 'file'], ['copy', null, 0, 'seeked'], ['rewind'], ['get']];
// [what happens, the operations, strace's injection, body_file's fallbacks, its spool_shared > 0]
$faults = [
    // the first copy_file_range() is the delivery: 0 is the stored file's end, come early
    ['the stored file ends at once', $whole, 'copy_file_range:retval=0:when=1', ['BODY_FILE_CHANGED' => 1], false],
    // a signal: the call is made again, nothing changes
    ['the copy interrupted (EINTR)', $whole, 'copy_file_range:error=EINTR:when=1', [], true],
    ['the destination fails (EIO)', $whole, 'copy_file_range:error=EIO:when=1', ['EIO' => 1], false],
    ['the destination is full (ENOSPC)', $whole, 'copy_file_range:error=ENOSPC:when=1', ['ENOSPC' => 1], false],
    ['the spool cannot take the stored file', $whole, 'dup3:error=EBADF:when=1', [], false],
    // a part: the delivery, then the fills' copy into the spool (sendfile() where it is refused,
    // the stream layer's write where that fails too), then the rest shares the stored file
    ['a part, its spool copy refused', $part, 'copy_file_range:error=EXDEV:when=2', [], true],
    ['a part, its spool copy failing', $part, 'copy_file_range:error=ENOSPC:when=2', [], true],
];
foreach ($faults as [$label, $ops, $inject, $fallbacks, $shared]) {
    $stock = fcup_fpm_put($servers['stock'], 'stock', $ops, $body);
    if (!isset($servers['override'])) {
        echo "$label: same\n";
        continue;
    }
    [$over] = fs_traced($servers['override'], 'override', $ops, $body, [], null, [$inject]);
    $why = [];
    if ($stock['report'] !== $over['report']) {
        $why[] = "report differs\n  stock:    " . json_encode($stock['report']) . "\n  override: " . json_encode($over['report']);
    }
    $d = fc_stats_delta($over['before'], $over['after'])['body_file'];
    if ($d['fallbacks'] !== $fallbacks || (($d['spool_shared'] ?? 0) > 0) !== $shared || $d['calls'] === 0) {
        $why[] = 'body_file: ' . json_encode($d);
    }
    echo $label, ': ', $why ? 'DIFFERS: ' . implode("\n", $why) : 'same', "\n";
}
foreach ($servers as $srv) {
    $srv->stop();
}
fcint_done();
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
override: on
the stored file ends at once: same
the copy interrupted (EINTR): same
the destination fails (EIO): same
the destination is full (ENOSPC): same
the spool cannot take the stored file: same
a part, its spool copy refused: same
a part, its spool copy failing: same
done
