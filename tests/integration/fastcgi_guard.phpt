--TEST--
Integration: where the FastCGI request cannot be proven (php-cgi run as a plain CGI program, whose SAPI is named like FastCGI's) the fastcgi path declines, says why in phpinfo(), and the output layer carries the bytes
--SKIPIF--
<?php
require __DIR__ . '/nginx_fpm.inc';
// CI installs Debian's php-cgi beside Debian's PHP; a PHP built elsewhere may have none.
if (fcfpm_php_cgi() === null && (getenv('CI') !== 'true' || !str_starts_with(PHP_BINARY, '/usr/bin/'))) {
    die('skip php-cgi not installed');
}
if (!fcint_override_state()['on']) {
    die('skip fastcopy.so does not load');
}
?>
--FILE--
<?php
require __DIR__ . '/nginx_fpm.inc';

$cgi = fcfpm_php_cgi();
$odd = fcint_data_file(FCINT_ODD_SIZE);
$tmp = fcint_tmpdir('fcgi-guard');
$script = "$tmp/send.php";
file_put_contents($script, '<?php
$n = readfile(' . var_export($odd['path'], true) . ');
$s = fastcopy_stats()["fastcgi"];
ob_start();
phpinfo(INFO_MODULES);
preg_match("#>fastcgi\\s*</td><td class=\"v\">\\s*(.*?)\\s*</td>#", ob_get_clean(), $m);
file_put_contents("php://stderr", json_encode([$m[1] ?? "no row", $n, $s["bytes"], $s["fallbacks"]]));
');
$env = ['REDIRECT_STATUS' => '200', 'REQUEST_METHOD' => 'GET', 'SCRIPT_FILENAME' => $script,
    'GATEWAY_INTERFACE' => 'CGI/1.1', 'PATH' => getenv('PATH')];
$p = proc_open(array_merge([$cgi, '-n'], fcint_ini_args('override')), [0 => ['file', '/dev/null', 'r'],
    1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, $tmp, $env);
$out = stream_get_contents($pipes[1]);
$err = stream_get_contents($pipes[2]);
proc_close($p);

[, $body] = explode("\r\n\r\n", $out, 2) + [1 => ''];
echo hash('sha256', $body) === $odd['sha256'] ? "body: the whole file\n" : 'body: ' . strlen($body) . " bytes, wrong\n";
echo "phpinfo row, readfile, fastcgi bytes, fallbacks: $err\n";
?>
--EXPECTF--
body: the whole file
phpinfo row, readfile, fastcgi bytes, fallbacks: ["unavailable (no FastCGI request)",5246979,0,{"UNVERIFIED":1}]
