--TEST--
Integration: where the apache path's guard must refuse and the download still arrives whole through the output layer: a download run by virtual() (mod_php's request info is the parent's, the request_rec the sub-request's: UNVERIFIED), one included by mod_include (SUBREQUEST); phpinfo() under mod_php and under the CLI; stock vs fastcopy.override
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
            fcap_check_path("$label [override]", $got, $got['returned'], $reason);
        }
    }
    if ($GLOBALS['fcint_failures'] === $before) {
        echo "$label: ok\n";
    }
}

fcap_declined($servers, 'virtual()', 'virtual.php?fn=readfile&log=virtual.json', 'virtual.json',
    fcfc_expect_slice($odd, 0, $size), 'UNVERIFIED');
fcap_declined($servers, 'mod_include', 'inc.shtml', 'ssi.json', fcfc_expect_slice($odd, 0, $size, '', "\n"),
    'SUBREQUEST');

// phpinfo(): the path's state where it runs, and why not elsewhere.
if (isset($servers['override'])) {
    $info = fcint_get($servers['override']->url('info.php'));
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
mod_php: available
CLI: unavailable (the SAPI is not Apache's mod_php)
done
