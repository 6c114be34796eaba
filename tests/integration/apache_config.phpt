--TEST--
Integration: the apache path under each Apache setting that changes how a FILE bucket is sent: EnableSendfile unset, On and Off, EnableMMAP Off, mod_deflate, mod_ssl; the child's sendfile calls (strace) show who did the work; stock vs fastcopy.override
--SKIPIF--
<?php require __DIR__ . '/apache.inc'; fcap_skipif(['strace']); ?>
--FILE--
<?php
require __DIR__ . '/apache.inc';

$odd = fcint_data_file(FCINT_ODD_SIZE);
// Above the size under which mod_deflate may hold a whole response (src/sapi/apache.c).
$big = fcint_data_file(20 * 1024 * 1024 + 12345);
$tmp = fcint_tmpdir('ap-config');
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['odd' => $odd['path'], 'big' => $big['path']]]);

$setups = [
    'EnableSendfile unset' => [[], true],
    'EnableSendfile On' => [['conf' => ['EnableSendfile On']], true],
    'EnableSendfile Off' => [['conf' => ['EnableSendfile Off']], false],
    'EnableMMAP Off' => [['conf' => ['EnableMMAP Off']], true],
    'EnableSendfile Off, EnableMMAP Off' => [['conf' => ['EnableSendfile Off', 'EnableMMAP Off']], false],
    // Filters that read the bucket: Apache reads the file, sendfile is not used.
    'mod_deflate' => [['modules' => ['deflate'], 'conf' => ['SetOutputFilter DEFLATE']], false],
    'mod_ssl' => [['ssl' => true], false],
];
$modes = fcint_modes();
foreach ($setups as $name => [$options, $sendfile]) {
    $servers = [];
    foreach ($modes as $mode) {
        $servers[$mode] = new FcapServer($mode, $docroot, "$tmp/" . md5($name), $options);
    }
    $deflate = isset($options['modules']);
    $f = $deflate ? $big : $odd;
    $q = ['fn' => 'readfile', 'file' => $deflate ? 'big' : 'odd'];
    $expect = $deflate ? ['status' => 200, 'headers' => ['Content-Encoding' => 'gzip'], 'decoded' => $f['sha256']]
        : fchttp_expect_slice($f, 0, $f['size']);
    $request = $deflate ? ['Accept-Encoding: gzip'] : [];
    if (!isset($servers['override'])) {
        fchttp_download('apache', $servers, $name, $q, $expect, $f['size'], 'apache', $request);
        continue;
    }
    $calls = fcap_count_syscalls($servers['override'], ['sendfile', 'writev'],
        fn () => fchttp_download('apache', $servers, $name, $q, $expect, $f['size'], 'apache', $request));
    if ($sendfile !== ($calls['sendfile'] > 0)) {
        fcint_fail("$name: the child made " . json_encode($calls) . ', want ' . ($sendfile ? '' : 'no ') . 'sendfile');
    }
    if ($deflate) {
        // Under 16 MiB mod_deflate may hold a whole response: the path leaves it to the
        // output layer, and the compressed answer is stock's, byte for byte.
        fchttp_download('apache', $servers, "$name, 5 MiB", ['fn' => 'readfile', 'file' => 'odd'], ['status' => 200,
            'headers' => ['Content-Encoding' => 'gzip']], $odd['size'], 'SMALL_RESPONSE', $request);
    }
    foreach ($servers as $srv) {
        $srv->stop();
    }
}
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
EnableSendfile unset: ok
EnableSendfile On: ok
EnableSendfile Off: ok
EnableMMAP Off: ok
EnableSendfile Off, EnableMMAP Off: ok
mod_deflate: ok
mod_deflate, 5 MiB: ok
mod_ssl: ok
done
