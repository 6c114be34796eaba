--TEST--
phpinfo() shows what each path will do in this process: available, disabled by fastcopy.disable, or unavailable with its reason
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
fastcopy.disable=sendfile, discard
--FILE--
<?php
function rows(): array
{
    ob_start();
    phpinfo(INFO_MODULES);
    $text = ob_get_clean();
    $rows = [];
    foreach (array_keys(fastcopy_stats()) as $path) {
        $rows[$path] = preg_match('/^' . preg_quote($path, '/') . ' => (.*)$/m', $text, $m) ? $m[1] : 'NO ROW';
    }
    return $rows;
}

$rows = rows();
foreach (['sendfile', 'discard', 'fastcgi', 'fastcgi_input', 'apache', 'mmap', 'buffered'] as $path) {
    echo "$path: {$rows[$path]}\n";
}
// the kernel paths: whatever this kernel offers, said in one of the two ways
foreach (['copy_file_range', 'splice', 'spool'] as $path) {
    echo "$path: ", preg_match('/^(available|unavailable \(.+\))$/', $rows[$path]) ? 'a state' : 'BAD ' . $rows[$path], "\n";
}
// the setting changes it at run time, and an unknown name is refused
ini_set('fastcopy.disable', 'fastcgi');
$rows = rows();
echo "sendfile: {$rows['sendfile']}\nfastcgi: {$rows['fastcgi']}\n";
var_dump(ini_set('fastcopy.disable', 'nosuchpath'));
?>
--EXPECTF--
sendfile: disabled by fastcopy.disable
discard: disabled by fastcopy.disable
fastcgi: unavailable (the SAPI is not PHP-FPM)
fastcgi_input: unavailable (the SAPI is not PHP-FPM)
apache: unavailable (the SAPI is not Apache's mod_php)
mmap: available
buffered: available
copy_file_range: a state
splice: a state
spool: a state
sendfile: available
fastcgi: disabled by fastcopy.disable

Warning: ini_set(): fastcopy.disable: unknown path "nosuchpath" (expected copy_file_range, sendfile, splice, handover, fastcgi, apache, spool, body_file, fastcgi_input, mmap, discard or wrappers) in %s on line %d
bool(false)
