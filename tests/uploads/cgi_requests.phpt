--TEST--
php://input under php-cgi: POST read at startup or not, a body cut short, Nextcloud's wrapped PUT, as stock
--EXTENSIONS--
fastcopy
--SKIPIF--
<?php
require __DIR__ . '/uploads.inc';
fcup_cgi_skipif();
if (fclib_autoload('dav') === null) die('skip icewind/streams not installed (tests/integration/setup.sh)');
?>
--FILE--
<?php
require __DIR__ . '/uploads.inc';

$copy = [['fread', 10], ['copy', 1000, 0, 'temp'], ['copy', null, 5000, 'file'], ['rewind'], ['get']];
$octet = ['method' => 'POST', 'content_type' => 'application/octet-stream'];
// the body is in the spool before the script runs: from 16 KiB on, in its file
$spooled = fn (int $size): array => ['path' => ['spool', 'buffered']] + ($size >= 16384 ? ['carried' => 'spool'] : []);
$off = ['ini' => ['enable_post_data_reading=0']];
foreach ([0, 1, 8193, 16384, 16385, 65536, 100003] as $size) {
    $body = fcup_body($size);
    // PHP spools the whole body before the script runs
    fcup_compare("POST octet-stream, $size bytes", $copy, $body, $octet + $spooled($size));
    // php://input reads it from the SAPI as the script asks
    fcup_compare("POST, enable_post_data_reading=0, $size bytes", $copy, $body, $octet + $off);
    // over post_max_size: PHP refuses to spool it
    fcup_compare("POST over post_max_size, $size bytes", $copy, $body, $octet + ['ini' => ['post_max_size=4K']]);
    // no Content-Length: PHP reads nothing
    fcup_compare("PUT without Content-Length, $size bytes", $copy, $body, ['content_length' => false]);
}

// A client that goes away: Content-Length says more than ever arrives.
foreach ([[5 << 20, (1 << 20) + 3000], [100000, 8191], [100000, 0]] as [$said, $sent]) {
    $body = fcup_body($said);
    foreach (['copy' => [['copy', null, 0, 'file']], 'file_put_contents' => [['fpc', 'file', 0]],
        'copy 1000 then from 5000' => [['copy', 1000, 0, 'temp'], ['copy', null, 5000, 'file']]] as $name => $ops) {
        fcup_compare("hang-up after $sent of $said bytes, $name", $ops, $body, ['truncate' => $sent]);
    }
}

// Nextcloud's PUT: php://input behind icewind's CallbackWrapper with only a pre-close callback.
$nc = ['autoload' => fclib_autoload('dav')];
foreach ([0, 1, 8192, 16385, 100003, (3 << 20) + 17] as $size) {
    $body = fcup_body($size);
    fcup_compare("Nextcloud PUT, $size bytes", [['nextcloud', 'file'], ['get']], $body, $nc);
    fcup_compare("wrapped copy of 1000, then Nextcloud PUT, $size bytes",
        [['wrapped_copy', 1000, 'temp'], ['nextcloud', 'file'], ['rewind'], ['get']], $body, $nc);
    fcup_compare("POST octet-stream, Nextcloud PUT, $size bytes", [['nextcloud', 'file']], $body,
        $nc + $octet + $spooled($size));
}
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
POST octet-stream, 0 bytes: same
POST, enable_post_data_reading=0, 0 bytes: same
POST over post_max_size, 0 bytes: same
PUT without Content-Length, 0 bytes: same
POST octet-stream, 1 bytes: same
POST, enable_post_data_reading=0, 1 bytes: same
POST over post_max_size, 1 bytes: same
PUT without Content-Length, 1 bytes: same
POST octet-stream, 8193 bytes: same
POST, enable_post_data_reading=0, 8193 bytes: same
POST over post_max_size, 8193 bytes: same
PUT without Content-Length, 8193 bytes: same
POST octet-stream, 16384 bytes: same
POST, enable_post_data_reading=0, 16384 bytes: same
POST over post_max_size, 16384 bytes: same
PUT without Content-Length, 16384 bytes: same
POST octet-stream, 16385 bytes: same
POST, enable_post_data_reading=0, 16385 bytes: same
POST over post_max_size, 16385 bytes: same
PUT without Content-Length, 16385 bytes: same
POST octet-stream, 65536 bytes: same
POST, enable_post_data_reading=0, 65536 bytes: same
POST over post_max_size, 65536 bytes: same
PUT without Content-Length, 65536 bytes: same
POST octet-stream, 100003 bytes: same
POST, enable_post_data_reading=0, 100003 bytes: same
POST over post_max_size, 100003 bytes: same
PUT without Content-Length, 100003 bytes: same
hang-up after 1051576 of 5242880 bytes, copy: same
hang-up after 1051576 of 5242880 bytes, file_put_contents: same
hang-up after 1051576 of 5242880 bytes, copy 1000 then from 5000: same
hang-up after 8191 of 100000 bytes, copy: same
hang-up after 8191 of 100000 bytes, file_put_contents: same
hang-up after 8191 of 100000 bytes, copy 1000 then from 5000: same
hang-up after 0 of 100000 bytes, copy: same
hang-up after 0 of 100000 bytes, file_put_contents: same
hang-up after 0 of 100000 bytes, copy 1000 then from 5000: same
Nextcloud PUT, 0 bytes: same
wrapped copy of 1000, then Nextcloud PUT, 0 bytes: same
POST octet-stream, Nextcloud PUT, 0 bytes: same
Nextcloud PUT, 1 bytes: same
wrapped copy of 1000, then Nextcloud PUT, 1 bytes: same
POST octet-stream, Nextcloud PUT, 1 bytes: same
Nextcloud PUT, 8192 bytes: same
wrapped copy of 1000, then Nextcloud PUT, 8192 bytes: same
POST octet-stream, Nextcloud PUT, 8192 bytes: same
Nextcloud PUT, 16385 bytes: same
wrapped copy of 1000, then Nextcloud PUT, 16385 bytes: same
POST octet-stream, Nextcloud PUT, 16385 bytes: same
Nextcloud PUT, 100003 bytes: same
wrapped copy of 1000, then Nextcloud PUT, 100003 bytes: same
POST octet-stream, Nextcloud PUT, 100003 bytes: same
Nextcloud PUT, 3145745 bytes: same
wrapped copy of 1000, then Nextcloud PUT, 3145745 bytes: same
POST octet-stream, Nextcloud PUT, 3145745 bytes: same
