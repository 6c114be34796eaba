--TEST--
Uploads: fastcopy.spool_clone is off by default, settable anywhere, and shown by phpinfo()
--EXTENSIONS--
fastcopy
--FILE--
<?php
var_dump(ini_get('fastcopy.spool_clone'));
var_dump(ini_set('fastcopy.spool_clone', '1'), ini_get('fastcopy.spool_clone'));
ini_restore('fastcopy.spool_clone');
var_dump(ini_get('fastcopy.spool_clone'));
ob_start();
phpinfo(INFO_MODULES);
echo preg_match('/^fastcopy\.spool_clone => Off => Off$/m', ob_get_clean()) ? "phpinfo: listed\n" : "phpinfo: missing\n";
?>
--EXPECT--
string(1) "0"
string(1) "0"
string(1) "1"
string(1) "0"
phpinfo: listed
