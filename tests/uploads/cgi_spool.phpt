--TEST--
php://input already in its spool file (a POST read at startup, a second copy after a rewind or on a new handle) copied by the spool path under php-cgi, as stock: stored bytes, positions, read buffer, spool, notices
--EXTENSIONS--
fastcopy
--SKIPIF--
<?php require __DIR__ . '/uploads.inc'; fcup_cgi_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/uploads.inc';

// [ops, whether the spool path must carry bytes of bodies from 64 KiB on]
$put = [
    'all, rewind, all into a file' => [[['copy', null, 0, 'temp'], ['rewind'], ['copy', null, 0, 'file'], ['get']], true],
    'all, seek, fread, 50000 into a file, rest into seeked' => [[['copy', null, 0, 'temp'], ['seek', 100],
        ['fread', 50], ['copy', 50000, 0, 'file'], ['copy', null, 0, 'seeked']], true],
    'all, new handle, 70000, then from 90000' => [[['copy', null, 0, 'temp'], ['reopen'],
        ['copy', 70000, 0, 'seeked'], ['copy', null, 90000, 'file']], true],
    // behind the live edge: the spooled fills from the spool, the rest from the SAPI
    '30000, rewind, all into a file' => [[['copy', 30000, 0, 'temp'], ['rewind'], ['copy', null, 0, 'file'],
        ['rewind'], ['get']], true],
    'odd lengths' => [[['copy', null, 0, 'temp'], ['seek', 5], ['copy', 40001, 0, 'file'], ['copy', 3, 0, 'file'],
        ['copy', null, 0, 'file']], true],
    'all, rewind, file_put_contents' => [[['copy', null, 0, 'temp'], ['rewind'], ['fpc', 'seeked', LOCK_EX]], true],
    // the spool's own file stream holding read-ahead when the copy asks about it
    'unbuffered, 30000, rewind, 100, all into a file' => [[['~read_buffer', 0], ['~fread', 30000], ['~rewind'],
        ['~fread', 100], ['copy', null, 0, 'file']], false],
    // fills that are not 8 KiB: stock's reads (FILL_SIZE)
    'chunk size 20000, all, rewind, all into a file' => [[['chunk', 20000], ['copy', null, 0, 'temp'], ['rewind'],
        ['copy', null, 0, 'file']], false],
    // O_APPEND: the kernel refuses it, the read/write path takes it
    'all, rewind, into an O_APPEND file' => [[['copy', null, 0, 'temp'], ['rewind'], ['copy', null, 0, 'append']],
        false],
];
$post = [
    'POST, all into a file' => [[['copy', null, 0, 'file'], ['rewind'], ['get']], true],
    'POST, fread, 70000, rest into seeked' => [[['fread', 333], ['copy', 70000, 0, 'file'],
        ['copy', null, 0, 'seeked']], true],
];
$octet = ['method' => 'POST', 'content_type' => 'application/octet-stream'];
$sizes = [0, 1, 8192, 16384, 16385, 65536, 100003, (2 << 20) + 4099];

foreach ([[$put, []], [$post, $octet]] as [$scenarios, $opt]) {
    foreach ($scenarios as $name => [$ops, $spool]) {
        foreach ($sizes as $size) {
            $check = ['path' => ['spool', 'buffered']] + ($spool && $size >= 65536 ? ['carried' => 'spool'] : []);
            fcup_compare("$name, $size bytes", $ops, fcup_body($size), $opt + $check);
        }
    }
}

// fastcopy.disable=spool: all of it on the read/write path
fcup_compare('disabled, all, rewind, all into a file', $put['all, rewind, all into a file'][0], fcup_body(100003),
    ['ini' => ['fastcopy.disable=spool']]);
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
all, rewind, all into a file, 0 bytes: same
all, rewind, all into a file, 1 bytes: same
all, rewind, all into a file, 8192 bytes: same
all, rewind, all into a file, 16384 bytes: same
all, rewind, all into a file, 16385 bytes: same
all, rewind, all into a file, 65536 bytes: same
all, rewind, all into a file, 100003 bytes: same
all, rewind, all into a file, 2101251 bytes: same
all, seek, fread, 50000 into a file, rest into seeked, 0 bytes: same
all, seek, fread, 50000 into a file, rest into seeked, 1 bytes: same
all, seek, fread, 50000 into a file, rest into seeked, 8192 bytes: same
all, seek, fread, 50000 into a file, rest into seeked, 16384 bytes: same
all, seek, fread, 50000 into a file, rest into seeked, 16385 bytes: same
all, seek, fread, 50000 into a file, rest into seeked, 65536 bytes: same
all, seek, fread, 50000 into a file, rest into seeked, 100003 bytes: same
all, seek, fread, 50000 into a file, rest into seeked, 2101251 bytes: same
all, new handle, 70000, then from 90000, 0 bytes: same
all, new handle, 70000, then from 90000, 1 bytes: same
all, new handle, 70000, then from 90000, 8192 bytes: same
all, new handle, 70000, then from 90000, 16384 bytes: same
all, new handle, 70000, then from 90000, 16385 bytes: same
all, new handle, 70000, then from 90000, 65536 bytes: same
all, new handle, 70000, then from 90000, 100003 bytes: same
all, new handle, 70000, then from 90000, 2101251 bytes: same
30000, rewind, all into a file, 0 bytes: same
30000, rewind, all into a file, 1 bytes: same
30000, rewind, all into a file, 8192 bytes: same
30000, rewind, all into a file, 16384 bytes: same
30000, rewind, all into a file, 16385 bytes: same
30000, rewind, all into a file, 65536 bytes: same
30000, rewind, all into a file, 100003 bytes: same
30000, rewind, all into a file, 2101251 bytes: same
odd lengths, 0 bytes: same
odd lengths, 1 bytes: same
odd lengths, 8192 bytes: same
odd lengths, 16384 bytes: same
odd lengths, 16385 bytes: same
odd lengths, 65536 bytes: same
odd lengths, 100003 bytes: same
odd lengths, 2101251 bytes: same
all, rewind, file_put_contents, 0 bytes: same
all, rewind, file_put_contents, 1 bytes: same
all, rewind, file_put_contents, 8192 bytes: same
all, rewind, file_put_contents, 16384 bytes: same
all, rewind, file_put_contents, 16385 bytes: same
all, rewind, file_put_contents, 65536 bytes: same
all, rewind, file_put_contents, 100003 bytes: same
all, rewind, file_put_contents, 2101251 bytes: same
unbuffered, 30000, rewind, 100, all into a file, 0 bytes: same
unbuffered, 30000, rewind, 100, all into a file, 1 bytes: same
unbuffered, 30000, rewind, 100, all into a file, 8192 bytes: same
unbuffered, 30000, rewind, 100, all into a file, 16384 bytes: same
unbuffered, 30000, rewind, 100, all into a file, 16385 bytes: same
unbuffered, 30000, rewind, 100, all into a file, 65536 bytes: same
unbuffered, 30000, rewind, 100, all into a file, 100003 bytes: same
unbuffered, 30000, rewind, 100, all into a file, 2101251 bytes: same
chunk size 20000, all, rewind, all into a file, 0 bytes: same
chunk size 20000, all, rewind, all into a file, 1 bytes: same
chunk size 20000, all, rewind, all into a file, 8192 bytes: same
chunk size 20000, all, rewind, all into a file, 16384 bytes: same
chunk size 20000, all, rewind, all into a file, 16385 bytes: same
chunk size 20000, all, rewind, all into a file, 65536 bytes: same
chunk size 20000, all, rewind, all into a file, 100003 bytes: same
chunk size 20000, all, rewind, all into a file, 2101251 bytes: same
all, rewind, into an O_APPEND file, 0 bytes: same
all, rewind, into an O_APPEND file, 1 bytes: same
all, rewind, into an O_APPEND file, 8192 bytes: same
all, rewind, into an O_APPEND file, 16384 bytes: same
all, rewind, into an O_APPEND file, 16385 bytes: same
all, rewind, into an O_APPEND file, 65536 bytes: same
all, rewind, into an O_APPEND file, 100003 bytes: same
all, rewind, into an O_APPEND file, 2101251 bytes: same
POST, all into a file, 0 bytes: same
POST, all into a file, 1 bytes: same
POST, all into a file, 8192 bytes: same
POST, all into a file, 16384 bytes: same
POST, all into a file, 16385 bytes: same
POST, all into a file, 65536 bytes: same
POST, all into a file, 100003 bytes: same
POST, all into a file, 2101251 bytes: same
POST, fread, 70000, rest into seeked, 0 bytes: same
POST, fread, 70000, rest into seeked, 1 bytes: same
POST, fread, 70000, rest into seeked, 8192 bytes: same
POST, fread, 70000, rest into seeked, 16384 bytes: same
POST, fread, 70000, rest into seeked, 16385 bytes: same
POST, fread, 70000, rest into seeked, 65536 bytes: same
POST, fread, 70000, rest into seeked, 100003 bytes: same
POST, fread, 70000, rest into seeked, 2101251 bytes: same
disabled, all, rewind, all into a file: same
