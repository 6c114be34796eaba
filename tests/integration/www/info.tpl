<?php
// fastcopy's phpinfo() rows as text: "path: state" per line.
header('Content-Type: text/plain');
ob_start();
(new ReflectionExtension('fastcopy'))->info();
$html = ob_get_clean();
preg_match_all('#<tr><td class="e">(.*?)</td><td class="v">(.*?)</td></tr>#', $html, $m, PREG_SET_ORDER);
foreach ($m as [, $name, $value]) {
    echo trim(html_entity_decode($name)), ': ', trim(html_entity_decode($value)), "\n";
}
