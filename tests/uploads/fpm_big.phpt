--TEST--
An upload over 4 GiB through nginx + PHP-FPM, stock vs fastcopy.override: copied from the socket into a file (fastcgi_input), then again from the spool into a file after a rewind (spool); the stored bytes are the body's
--SKIPIF--
<?php
require __DIR__ . '/../integration/harness.inc';
if (getenv('FASTCOPY_TEST_BIG') !== '1') {
    die('skip set FASTCOPY_TEST_BIG=1 (PUTs 4 GiB through nginx per mode)');
}
if (PHP_INT_SIZE < 8) {
    die('skip 64-bit only');
}
if (getenv('USE_ZEND_ALLOC') === '0' && getenv('ZEND_DONT_UNLOAD_MODULES') === '1') {
    die('skip under valgrind (run-tests.php -m): see fpm_valgrind.phpt');
}
// the body (sparse where holes are kept), the spool, and two stored copies at a time
if (disk_free_space(sys_get_temp_dir()) < (14 << 30)) {
    die('skip 14 GiB free needed in ' . sys_get_temp_dir());
}
fcint_skipif(['nginx', 'fpm', 'curl', 'dav']);
?>
--FILE--
<?php
require __DIR__ . '/fpm.inc';

// 4 GiB + 4099 bytes: holes, with a mark of its own every 16 MiB, so a byte in the wrong place shows
$size = (4 << 30) + 4099;
$body = fc_tmpdir() . '/big-body';
$f = fopen($body, 'w');
ftruncate($f, $size);
for ($at = 0; $at < $size; $at += 16 << 20) {
    fseek($f, $at + ($at >> 24) % 4093);
    fwrite($f, sprintf('<mark %d %s>', $at, md5((string) $at)));
}
fseek($f, $size - 10);
fwrite($f, "the end.\r\n");
fclose($f);
$want = md5_file($body);

$tmp = fcint_tmpdir('uploads-big');
// max_execution_time counts the worker's CPU seconds: stock's copies and the report's hashes of
// 8 GiB come near its default 30 (a fatal error, and no report), more so on a busy machine
$servers = fcfpm_stacks(fcup_fpm_docroot($tmp), $tmp, ['keepalive' => 1, 'pool' => ['request_terminate_timeout = 600'],
    'ini' => ['max_execution_time=0'],
    'nginx' => ['client_max_body_size 0;', 'fastcgi_request_buffering off;']]);
// no re-read into memory at the end: the destinations' hashes are the report's
$ops = [['copy', null, 0, 'file'], ['rewind'], ['copy', null, 0, 'seeked'], ['leave']];
$runs = [];
foreach ($servers as $mode => $srv) {
    $runs[$mode] = fcup_fpm_put($srv, $mode, $ops, $body, null, ['timeout' => 600, 'stream' => true]);
    // what the worker stored: the body's bytes (after the 1234 bytes the seeked file kept)
    $d = $runs[$mode]['report']['dests'] ?? [];
    if (($d['file'] ?? null) !== [$size, $want, $size] || ($d['seeked'][2] ?? null) !== $size + 1234) {
        fcint_fail("[$mode] stored " . json_encode($d) . ", the body is $size bytes, md5 $want");
    }
    echo "$mode: ", json_encode($runs[$mode]['report']['steps'][0][1]), ' bytes copied, then ',
        json_encode($runs[$mode]['report']['steps'][2][1]), "\n";
    fcint_rmtree(dirname($srv->docroot) . '/logs');
    @mkdir(dirname($srv->docroot) . '/logs', 0777);
    chmod(dirname($srv->docroot) . '/logs', 0777);
}
if (isset($runs['override'])) {
    echo 'stock and override: ', $runs['stock']['report'] === $runs['override']['report'] ? 'same' : 'DIFFER', "\n";
    $e = fcup_check_engine($runs['override'], FCUP_FPM_PATHS, 'fastcgi_input');
    $d = fc_stats_delta($runs['override']['before'], $runs['override']['after']);
    echo 'engine: ', $e === '' ? 'carried' : $e, '; fastcgi_input > 4 GiB: ', json_encode($d['fastcgi_input']['bytes'] > (4 << 30)),
        ', spool > 4 GiB: ', json_encode($d['spool']['bytes'] > (4 << 30)), "\n";
}
foreach ($servers as $srv) {
    $srv->stop();
}
unlink($body);
fcint_done();
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
override: on
stock: 4294971395 bytes copied, then 4294971395
override: 4294971395 bytes copied, then 4294971395
stock and override: same
engine: carried; fastcgi_input > 4 GiB: true, spool > 4 GiB: true
done
