--TEST--
file_put_contents() with php://input under php-cgi: flags, contexts, warnings and other data types as stock
--EXTENSIONS--
fastcopy
--SKIPIF--
<?php require __DIR__ . '/uploads.inc'; fcup_cgi_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/uploads.inc';

$scenarios = [
    'plain' => [['fpc', 'file', 0]],
    'FILE_APPEND' => [['fpc', 'append', FILE_APPEND]],
    'LOCK_EX over a longer file' => [['fpc', 'seeked', LOCK_EX]],
    'FILE_APPEND | LOCK_EX' => [['fpc', 'append', FILE_APPEND | LOCK_EX]],
    'FILE_USE_INCLUDE_PATH, a context' => [['fpc', 'file', FILE_USE_INCLUDE_PATH, true]],
    'after fread' => [['fread', 5000], ['fpc', 'file', 0]],
    'after a copy of 1000, twice' => [['copy', 1000, 0, 'temp'], ['fpc', 'file', 0], ['rewind'], ['fpc', 'append', FILE_APPEND]],
    'LOCK_EX on php://temp' => [['fpc_url', 'php://temp', LOCK_EX], ['get']],
    'php://memory' => [['fpc_url', 'php://memory', FILE_APPEND]],
    'no such directory' => [['fpc_url', '/nonexistent-fastcopy-dir/x', 0], ['get']],
    'file:// with LOCK_EX' => [['fread', 1], ['fpc_url', 'file:///dev/null', LOCK_EX]],
    'a string, an array, a Stringable' => [['fpc_data', 'string', 0], ['fpc_data', 'array', FILE_APPEND],
        ['fpc_data', 'object', FILE_APPEND | LOCK_EX], ['fpc', 'append', FILE_APPEND]],
    'a closed stream' => [['fpc_data', 'closed', 0], ['get']],
];
foreach ($scenarios as $name => $ops) {
    foreach ([0, 8192, 16385, 70001] as $size) {
        fcup_compare("$name, $size bytes", $ops, fcup_body($size));
    }
}
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
plain, 0 bytes: same
plain, 8192 bytes: same
plain, 16385 bytes: same
plain, 70001 bytes: same
FILE_APPEND, 0 bytes: same
FILE_APPEND, 8192 bytes: same
FILE_APPEND, 16385 bytes: same
FILE_APPEND, 70001 bytes: same
LOCK_EX over a longer file, 0 bytes: same
LOCK_EX over a longer file, 8192 bytes: same
LOCK_EX over a longer file, 16385 bytes: same
LOCK_EX over a longer file, 70001 bytes: same
FILE_APPEND | LOCK_EX, 0 bytes: same
FILE_APPEND | LOCK_EX, 8192 bytes: same
FILE_APPEND | LOCK_EX, 16385 bytes: same
FILE_APPEND | LOCK_EX, 70001 bytes: same
FILE_USE_INCLUDE_PATH, a context, 0 bytes: same
FILE_USE_INCLUDE_PATH, a context, 8192 bytes: same
FILE_USE_INCLUDE_PATH, a context, 16385 bytes: same
FILE_USE_INCLUDE_PATH, a context, 70001 bytes: same
after fread, 0 bytes: same
after fread, 8192 bytes: same
after fread, 16385 bytes: same
after fread, 70001 bytes: same
after a copy of 1000, twice, 0 bytes: same
after a copy of 1000, twice, 8192 bytes: same
after a copy of 1000, twice, 16385 bytes: same
after a copy of 1000, twice, 70001 bytes: same
LOCK_EX on php://temp, 0 bytes: same
LOCK_EX on php://temp, 8192 bytes: same
LOCK_EX on php://temp, 16385 bytes: same
LOCK_EX on php://temp, 70001 bytes: same
php://memory, 0 bytes: same
php://memory, 8192 bytes: same
php://memory, 16385 bytes: same
php://memory, 70001 bytes: same
no such directory, 0 bytes: same
no such directory, 8192 bytes: same
no such directory, 16385 bytes: same
no such directory, 70001 bytes: same
file:// with LOCK_EX, 0 bytes: same
file:// with LOCK_EX, 8192 bytes: same
file:// with LOCK_EX, 16385 bytes: same
file:// with LOCK_EX, 70001 bytes: same
a string, an array, a Stringable, 0 bytes: same
a string, an array, a Stringable, 8192 bytes: same
a string, an array, a Stringable, 16385 bytes: same
a string, an array, a Stringable, 70001 bytes: same
a closed stream, 0 bytes: same
a closed stream, 8192 bytes: same
a closed stream, 16385 bytes: same
a closed stream, 70001 bytes: same
