--TEST--
Uploads with the body handed over as the file nginx stored: the body_file path takes PHP-FPM's own descriptor of it and no other (not the script's own handle in a shutdown function, after PHP-FPM closed its own; not one of two that match; not a copy into that file), reads REQUEST_BODY_FILE raw as PHP-FPM does (filter.default set), and counts BODY_FILE_CHANGED when the file grows or ends early during the copy; each report is stock's
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/../integration/harness.inc';
if (getenv('USE_ZEND_ALLOC') === '0' && getenv('ZEND_DONT_UNLOAD_MODULES') === '1') {
    die('skip under valgrind (run-tests.php -m): see fpm_body_file_valgrind.phpt');
}
if (php_uname('m') !== 'x86_64') die('skip watches the worker\'s syscall by its x86-64 number');
require __DIR__ . '/filesystems.inc';
fs_skipif(['strace']);
?>
--FILE--
<?php
require __DIR__ . '/body_file.inc';

$tmp = fcint_tmpdir('uploads-bodyfile-proof');
$body = fcup_body((2 << 20) + 4099);
$size = filesize($body);
/* What body_file's counters must say for each copy. */
$fallbacks = function (array $want, bool $shared = false): callable {
    return function (array $run) use ($want, $shared): string {
        $d = fc_stats_delta($run['before'], $run['after'])['body_file'];
        return $d['fallbacks'] === $want && (($d['spool_shared'] ?? 0) > 0) === $shared && $d['calls'] > 0
            ? '' : json_encode($d);
    };
};
$same = function (string $label, array $stock, ?array $over, callable $check, bool $opsDiffer = false): void {
    if ($over === null) {
        return;
    }
    // where stock changes the stored file before the copy and the override inside it,
    // the operations differ in their argument only
    $strip = fn (array $r) => $opsDiffer ? ['steps' => array_map(fn ($s) => array_slice($s, 1), $r['steps'])] + $r : $r;
    $why = [];
    if ($strip($stock['report']) !== $strip($over['report'])) {
        $why[] = "report differs\n  stock:    " . json_encode($stock['report']) . "\n  override: " . json_encode($over['report']);
    }
    if (($e = $check($over)) !== '') {
        $why[] = "body_file: $e";
    }
    echo $label, ': ', $why ? 'DIFFERS: ' . implode("\n", $why) : 'same', "\n";
};

$root = "$tmp/www-proof";
mkdir($root);
$servers = fcfpm_stacks(fcup_fpm_docroot($root), $root, ['keepalive' => 2,
    'nginx' => ['client_max_body_size 0;', ...fcup_body_file_nginx()]]);
// three fills read (php://input's fread() returns one fill): the spool is a file, PHP-FPM's
// descriptor at 24,576
$read = [['fread', 8192], ['fread', 8192], ['fread', 8192]];
$cases = [
    // PHP-FPM closes its descriptor before the shutdown functions run, and reads the socket
    // from then on (nothing more: nginx sent the body as the file); a descriptor that matches
    // then is the script's own
    'a copy in a shutdown function, the script holding its own handle at the same offset' => [
        [...$read, ['own_handle'], ['shutdown'], ['copy', null, 0, 'file'], ['rewind'], ['get']], ['UNVERIFIED' => 1]],
    'two descriptors that match, PHP-FPM\'s and the script\'s' => [
        [...$read, ['own_handle'], ['copy', null, 0, 'file'], ['rewind'], ['get']], ['UNVERIFIED' => 1]],
    'a copy into the stored file itself' => [
        [...$read, ['copy', null, 0, 'stored'], ['rewind'], ['get']], ['SAME_FILE' => 1]],
];
foreach ($cases as $label => [$ops, $want]) {
    $runs = array_map(fn ($srv) => fcup_fpm_put($srv, $srv->mode, $ops, $body), $servers);
    $same($label, $runs['stock'], $runs['override'] ?? null, $fallbacks($want));
}
// the stored file changed while the override's copy is inside copy_file_range(); stock reads
// CONTENT_LENGTH bytes of a file that grew, and to its end a file cut short, whenever that happened
$changes = [
    'the stored file grows during the copy' => ['append', 5000, 0, 'head -c 5000 /dev/zero >> "$f"'],
    'the stored file ends early during the copy, after some bytes' => ['truncate', 1 << 20, $size,
        'truncate -s ' . (1 << 20) . ' "$f"'],
];
foreach ($changes as $label => [$what, $stockArg, $overArg, $action]) {
    $ops = fn ($arg) => [['body_file', $what, $arg], ['copy', null, 0, 'file'], ['rewind'], ['get']];
    $stock = fcup_fpm_put($servers['stock'], 'stock', $ops($stockArg), $body);
    $over = isset($servers['override']) ? fcbf_during_copy($servers['override'], $ops($overArg), $body, $action) : null;
    if (!isset($servers['override']) || $over !== null) {
        $same($label, $stock, $over, $fallbacks(['BODY_FILE_CHANGED' => 1]), true);
    }
}
foreach ($servers as $srv) {
    $srv->stop();
}

// REQUEST_BODY_FILE with a character filter.default changes: PHP-FPM opens the name as
// nginx sent it, and so must the path find it (sapi_getenv() would filter it)
$root = "$tmp/www-raw";
mkdir($root);
mkdir("$root/body raw", 0700);
$servers = fcfpm_stacks(fcup_fpm_docroot($root), $root, ['keepalive' => 2, 'ini' => ['filter.default=url'],
    'nginx' => ['client_max_body_size 0;', ...fcup_body_file_nginx(), "client_body_temp_path \"$root/body raw\";"]]);
$ops = [['copy', null, 0, 'file'], ['rewind'], ['get']];
$runs = array_map(fn ($srv) => fcup_fpm_put($srv, $srv->mode, $ops, $body), $servers);
$same('REQUEST_BODY_FILE in a directory named with a space, filter.default=url', $runs['stock'], $runs['override'] ?? null,
    $fallbacks([], true));
foreach ($servers as $srv) {
    $srv->stop();
}
fcint_done();
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
override: on
a copy in a shutdown function, the script holding its own handle at the same offset: same
two descriptors that match, PHP-FPM's and the script's: same
a copy into the stored file itself: same
the stored file grows during the copy: same
the stored file ends early during the copy, after some bytes: same
override: on
REQUEST_BODY_FILE in a directory named with a space, filter.default=url: same
done
