--TEST--
The hand-over and the names of files: spaces, '%', '?', '#', '+', UTF-8 and other bytes, control characters, blanks at either end, links and ".." in and out of the data directory, behind nginx, lighttpd and Caddy: each server is handed the name it can take (the file's own, as the kernel names it, encoded its way) and nothing outside the directory, whatever name the script used; every answer stock's
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/handover.inc';
fcho_skipif(['nginx', 'lighttpd', 'caddy']);
?>
--FILE--
<?php
require __DIR__ . '/handover.inc';

// what each server cannot be given: [nginx, lighttpd, Caddy]
$declined = [
    'bytes not UTF-8' => [null, 'NAME', null],
    'a control character' => [null, 'NAME', 'NAME'],
    'a line end' => [null, 'NAME', 'NAME'],
    'a percent sign' => [null, null, 'NAME'],
    'a question mark' => [null, null, 'NAME'],
    'a hash' => [null, null, 'NAME'],
    'a trailing blank' => [null, null, 'NAME'],
    'a link out of it' => ['OUTSIDE_DIR', 'OUTSIDE_DIR', 'OUTSIDE_DIR'],
    '".." out of it' => ['OUTSIDE_DIR', 'OUTSIDE_DIR', 'OUTSIDE_DIR'],
];
foreach (['nginx', 'lighttpd', 'caddy'] as $i => $kind) {
    echo "-- $kind\n";
    $tmp = fcint_tmpdir("handover-names-$kind");
    $data = fcho_data($tmp);
    $names = fcho_names($data);
    $servers = $kind === 'nginx' ? fcho_nginx_stacks($tmp, $data) : fcho_front_pairs($kind, $tmp, $data);
    foreach ($names as $what => $name) {
        fcho_case($servers, $what, ['f' => $name], $declined[$what][$i] ?? 'handover');
    }
    foreach ($servers as $srv) {
        $srv->stop();
    }
}
fcint_done();
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
-- nginx
override: on
a space: ok
a percent sign: ok
a question mark: ok
a hash: ok
a plus: ok
UTF-8: ok
bytes not UTF-8: ok
a control character: ok
a line end: ok
a trailing blank: ok
a leading blank: ok
a deeper directory: ok
a link to a file in the directory: ok
a link out of it: ok
".." out of it: ok
".." back into it: ok
-- lighttpd
override: on
a space: ok
a percent sign: ok
a question mark: ok
a hash: ok
a plus: ok
UTF-8: ok
bytes not UTF-8: ok
a control character: ok
a line end: ok
a trailing blank: ok
a leading blank: ok
a deeper directory: ok
a link to a file in the directory: ok
a link out of it: ok
".." out of it: ok
".." back into it: ok
-- caddy
override: on
a space: ok
a percent sign: ok
a question mark: ok
a hash: ok
a plus: ok
UTF-8: ok
bytes not UTF-8: ok
a control character: ok
a line end: ok
a trailing blank: ok
a leading blank: ok
a deeper directory: ok
a link to a file in the directory: ok
a link out of it: ok
".." out of it: ok
".." back into it: ok
done
