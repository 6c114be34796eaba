--TEST--
php://input under php-cgi: copies with the override leave the spool, positions, read buffer and warnings as stock
--EXTENSIONS--
fastcopy
--SKIPIF--
<?php require __DIR__ . '/uploads.inc'; fcup_cgi_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/uploads.inc';

$scenarios = [
    'all into temp' => [['copy', null, 0, 'temp']],
    '1000 then from 5000' => [['copy', 1000, 0, 'memory'], ['copy', null, 5000, 'temp']],
    'fread 100 then all' => [['fread', 100], ['copy', null, 0, 'file']],
    'fread 9000, 3000, rest' => [['fread', 9000], ['copy', 3000, 0, 'temp'], ['copy', null, 0, 'temp']],
    'two copies from one handle' => [['copy', 8193, 0, 'append'], ['copy', null, 0, 'seeked']],
    'rewind and again' => [['copy', 20000, 0, 'temp'], ['rewind'], ['copy', null, 0, 'memory']],
    'new handle' => [['copy', 12345, 0, 'file'], ['reopen'], ['copy', null, 0, 'temp'], ['get']],
    'seek inside, copy, read rest' => [['copy', 10, 0, 'temp'], ['seek', 4000], ['copy', 5000, 0, 'memory'], ['get']],
    'offset past the spool' => [['copy', 100, 0, 'temp'], ['copy', null, 70000, 'memory']],
    'length 0 then offset' => [['copy', 0, 0, 'temp'], ['copy', 1, 3, 'temp']],
];
$sizes = [0, 1, 8191, 8192, 8193, 16384, 16385, 65536, 100003];

foreach ($scenarios as $name => $ops) {
    foreach ($sizes as $size) {
        fcup_compare("$name, $size bytes", $ops, fcup_body($size));
    }
}
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
all into temp, 0 bytes: same
all into temp, 1 bytes: same
all into temp, 8191 bytes: same
all into temp, 8192 bytes: same
all into temp, 8193 bytes: same
all into temp, 16384 bytes: same
all into temp, 16385 bytes: same
all into temp, 65536 bytes: same
all into temp, 100003 bytes: same
1000 then from 5000, 0 bytes: same
1000 then from 5000, 1 bytes: same
1000 then from 5000, 8191 bytes: same
1000 then from 5000, 8192 bytes: same
1000 then from 5000, 8193 bytes: same
1000 then from 5000, 16384 bytes: same
1000 then from 5000, 16385 bytes: same
1000 then from 5000, 65536 bytes: same
1000 then from 5000, 100003 bytes: same
fread 100 then all, 0 bytes: same
fread 100 then all, 1 bytes: same
fread 100 then all, 8191 bytes: same
fread 100 then all, 8192 bytes: same
fread 100 then all, 8193 bytes: same
fread 100 then all, 16384 bytes: same
fread 100 then all, 16385 bytes: same
fread 100 then all, 65536 bytes: same
fread 100 then all, 100003 bytes: same
fread 9000, 3000, rest, 0 bytes: same
fread 9000, 3000, rest, 1 bytes: same
fread 9000, 3000, rest, 8191 bytes: same
fread 9000, 3000, rest, 8192 bytes: same
fread 9000, 3000, rest, 8193 bytes: same
fread 9000, 3000, rest, 16384 bytes: same
fread 9000, 3000, rest, 16385 bytes: same
fread 9000, 3000, rest, 65536 bytes: same
fread 9000, 3000, rest, 100003 bytes: same
two copies from one handle, 0 bytes: same
two copies from one handle, 1 bytes: same
two copies from one handle, 8191 bytes: same
two copies from one handle, 8192 bytes: same
two copies from one handle, 8193 bytes: same
two copies from one handle, 16384 bytes: same
two copies from one handle, 16385 bytes: same
two copies from one handle, 65536 bytes: same
two copies from one handle, 100003 bytes: same
rewind and again, 0 bytes: same
rewind and again, 1 bytes: same
rewind and again, 8191 bytes: same
rewind and again, 8192 bytes: same
rewind and again, 8193 bytes: same
rewind and again, 16384 bytes: same
rewind and again, 16385 bytes: same
rewind and again, 65536 bytes: same
rewind and again, 100003 bytes: same
new handle, 0 bytes: same
new handle, 1 bytes: same
new handle, 8191 bytes: same
new handle, 8192 bytes: same
new handle, 8193 bytes: same
new handle, 16384 bytes: same
new handle, 16385 bytes: same
new handle, 65536 bytes: same
new handle, 100003 bytes: same
seek inside, copy, read rest, 0 bytes: same
seek inside, copy, read rest, 1 bytes: same
seek inside, copy, read rest, 8191 bytes: same
seek inside, copy, read rest, 8192 bytes: same
seek inside, copy, read rest, 8193 bytes: same
seek inside, copy, read rest, 16384 bytes: same
seek inside, copy, read rest, 16385 bytes: same
seek inside, copy, read rest, 65536 bytes: same
seek inside, copy, read rest, 100003 bytes: same
offset past the spool, 0 bytes: same
offset past the spool, 1 bytes: same
offset past the spool, 8191 bytes: same
offset past the spool, 8192 bytes: same
offset past the spool, 8193 bytes: same
offset past the spool, 16384 bytes: same
offset past the spool, 16385 bytes: same
offset past the spool, 65536 bytes: same
offset past the spool, 100003 bytes: same
length 0 then offset, 0 bytes: same
length 0 then offset, 1 bytes: same
length 0 then offset, 8191 bytes: same
length 0 then offset, 8192 bytes: same
length 0 then offset, 8193 bytes: same
length 0 then offset, 16384 bytes: same
length 0 then offset, 16385 bytes: same
length 0 then offset, 65536 bytes: same
length 0 then offset, 100003 bytes: same
