--TEST--
Integration: where the apache path's guard must refuse and the download still arrives whole through the output layer: a download run by virtual() (mod_php's request info is the parent's, the request_rec the sub-request's: UNVERIFIED), one included by mod_include (SUBREQUEST), one over HTTP/2 (h2c: FILTER_CHAIN); phpinfo() under mod_php and under the CLI; stock vs fastcopy.override
--SKIPIF--
<?php require __DIR__ . '/apache.inc'; fcap_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/apache.inc';

$odd = fcint_data_file(FCINT_ODD_SIZE);
$size = $odd['size'];
$tmp = fcint_tmpdir('ap-guard');
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['odd' => $odd['path']]]);
file_put_contents("$docroot/inc.shtml", "<!--#include virtual=\"/download.php?fn=readfile&log=ssi.json\" -->\n");
$servers = fcap_servers($docroot, $tmp, ['modules' => ['include'],
    'conf' => ["<Files \"*.shtml\">\n    Options +Includes\n    SetOutputFilter INCLUDES\n</Files>"]]);

/** One page whose download.php logs $log, on every server; the override declined with $reason. */
function fcap_declined(array $servers, string $label, string $path, string $log, array $expect, string $reason): void
{
    $before = $GLOBALS['fcint_failures'];
    foreach ($servers as $mode => $srv) {
        @unlink(dirname($srv->docroot) . "/logs/$log");
    }
    ob_start();
    fcap_compare($servers, $label, $path, [], $expect, null);
    ob_end_clean();
    if (isset($servers['override'])) {
        $got = fcint_wait_log(dirname($servers['override']->docroot) . "/logs/$log", 30);
        if ($got === null) {
            fcint_fail("$label [override]: the script logged nothing");
        } else {
            fchttp_check_path("$label [override]", $got, $got['returned'], $reason, 'apache');
        }
    }
    if ($GLOBALS['fcint_failures'] === $before) {
        echo "$label: ok\n";
    }
}

fcap_declined($servers, 'virtual()', 'virtual.php?fn=readfile&log=virtual.json', 'virtual.json',
    fchttp_expect_slice($odd, 0, $size), 'UNVERIFIED');
fcap_declined($servers, 'mod_include', 'inc.shtml', 'ssi.json', fchttp_expect_slice($odd, 0, $size, '', "\n"),
    'SUBREQUEST');

// HTTP/2 (h2c; mod_http2 warns that prefork is not supported, and serves): the request's
// filters end in mod_http2's, not in Apache's core filter (FILTER_CHAIN).
$before = $GLOBALS['fcint_failures'];
$h2 = [];
foreach (array_keys($servers) as $mode) {
    $h2[$mode] = new FcapServer($mode, $docroot, "$tmp/h2", ['modules' => ['http2'], 'conf' => ['Protocols h2c http/1.1']]);
    @unlink("$tmp/logs/h2.json");
    $r = fcint_run_hash_stdout([fcint_tool('curl'), '-sS', '--http2-prior-knowledge', '-w', '%{http_version} %{http_code}',
        '-o', "$tmp/h2-$mode.body", $h2[$mode]->url('download.php?fn=readfile&log=h2.json')]);
    if ($r['head'] !== '2 200' || hash_file('sha256', "$tmp/h2-$mode.body") !== $odd['sha256']) {
        fcint_fail("h2c [$mode]: " . json_encode([$r['head'], $r['stderr']]));
    }
    $log = fcint_wait_log("$tmp/logs/h2.json", 30);
    if ($mode === 'override') {
        $log === null ? fcint_fail('h2c [override]: the script logged nothing') : fchttp_check_path('h2c [override]', $log,
            $size, 'FILTER_CHAIN', 'apache');
    }
    $h2[$mode]->stop();
}
if ($GLOBALS['fcint_failures'] === $before) {
    echo "HTTP/2: ok\n";
}

// phpinfo(): the path's state where it runs, and why not elsewhere.
if (isset($servers['override'])) {
    $info = fchttp_get($servers['override']->url('info.php'));
    echo 'mod_php: ', preg_match('/^apache: (.*)$/m', $info['head'], $m) ? $m[1] : 'no apache row', "\n";
} else {
    echo "mod_php: available\n";
}
ob_start();
(new ReflectionExtension('fastcopy'))->info();
$info = ob_get_clean();
echo 'CLI: ', preg_match('/^apache => (.*)$/m', $info, $m) ? $m[1] : 'no apache row', "\n";
fcint_done();
?>
--EXPECT--
override: on
virtual(): ok
mod_include: ok
HTTP/2: ok
mod_php: available
CLI: unavailable (the SAPI is not Apache's mod_php)
done
