--TEST--
Uploads through nginx + PHP-FPM with the stored files and upload_tmp_dir on XFS (reflink on): fpm_put.phpt's whole matrix again, with fastcopy.spool_clone=1 (the socket path splices each body into its file and clones the spool from it) and without (the default: it writes both from its buffer), stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/../integration/harness.inc';
if (getenv('USE_ZEND_ALLOC') === '0' && getenv('ZEND_DONT_UNLOAD_MODULES') === '1') {
    die('skip under valgrind (run-tests.php -m): see fpm_valgrind.phpt');
}
require __DIR__ . '/filesystems.inc';
fs_skipif(['mkfs.xfs']);
?>
--FILE--
<?php
require __DIR__ . '/put_matrix.inc';
require __DIR__ . '/filesystems.inc';

$tmp = fcint_tmpdir('uploads-xfs');
$mounted = [];
$routed = 0;
$clone = true;
/* Each copy the socket path carried: bytes spliced into the file are exactly the
 * spool's cloned bytes; with fastcopy.spool_clone=1 a copy into a new file from its
 * start (offsets that agree with the spool's) takes the splice route, without it none does. */
$check = function (string $label, array $run) use (&$routed, &$clone): void {
    $d = fc_stats_delta($run['before'], $run['after'])['fastcgi_input'];
    [$spliced, $cloned] = [$d['spliced'] ?? 0, $d['spool_cloned'] ?? 0];
    $fromStart = preg_match('/(copy into a file|Nextcloud|part into a file|hang-up after \d{7,} bytes)/', $label);
    if ($spliced !== $cloned || $spliced > $d['bytes'] || ($clone ? $fromStart && $spliced === 0 : $spliced !== 0)) {
        fcint_fail("$label: spliced and cloned " . json_encode($d) . ($clone ? '' : ' with spool_clone off'));
    }
    $routed += $spliced > 0 ? 1 : 0;
};
try {
    $xfs = fs_mount($tmp, 'xfs', $mounted, '2G');
    if (!$xfs || !fs_clones("$xfs/files")) {
        fcint_fail('no XFS with reflink to test on');
        exit;
    }
    $stacks = [
        'on' => ['listen' => 'tcp', 'ini' => ['fastcopy.spool_clone=1'], 'nginx' => ['client_max_body_size 0;']],
        'off' => ['keepalive' => 2, 'ini' => ['fastcopy.spool_clone=1'],
            'nginx' => ['client_max_body_size 0;', 'fastcgi_request_buffering off;']],
        // by default the socket path reads the body and writes it to both
        'off, spool_clone off' => ['keepalive' => 2, 'nginx' => ['client_max_body_size 0;', 'fastcgi_request_buffering off;']],
    ];
    foreach ($stacks as $buffering => $options) {
        $clone = in_array('fastcopy.spool_clone=1', $options['ini'] ?? [], true);
        $root = "$tmp/www-" . preg_replace('/\W+/', '-', $buffering);
        mkdir($root);
        $servers = fcint_stacks(fcup_fpm_docroot($root), $root,
            ['ini' => ["upload_tmp_dir=$xfs/spool", ...($options['ini'] ?? [])]] + $options);
        fcup_put_matrix($servers, $buffering, ['dir' => "$xfs/files"], $check);
        foreach ($servers as $srv) {
            $srv->stop();
        }
    }
    echo $routed > 0 ? "the splice route carried bodies\n" : "the splice route carried nothing\n";
} finally {
    fs_unmount($mounted);
}
fcint_done();
?>
--CLEAN--
<?php
require __DIR__ . '/filesystems.inc';
fs_unmount_leftovers('uploads-xfs');
?>
--EXPECT--
override: on
buffering on, copy into a file, 0 bytes: same
buffering on, copy into a file, 1 bytes: same
buffering on, copy into a file, 8192 bytes: same
buffering on, copy into a file, 16385 bytes: same
buffering on, copy into a file, 65536 bytes: same
buffering on, copy into a file, 2101251 bytes: same
buffering on, 1000 then from 5000, 0 bytes: same
buffering on, 1000 then from 5000, 1 bytes: same
buffering on, 1000 then from 5000, 8192 bytes: same
buffering on, 1000 then from 5000, 16385 bytes: same
buffering on, 1000 then from 5000, 65536 bytes: same
buffering on, 1000 then from 5000, 2101251 bytes: same
buffering on, fread, two copies, new handle, 0 bytes: same
buffering on, fread, two copies, new handle, 1 bytes: same
buffering on, fread, two copies, new handle, 8192 bytes: same
buffering on, fread, two copies, new handle, 16385 bytes: same
buffering on, fread, two copies, new handle, 65536 bytes: same
buffering on, fread, two copies, new handle, 2101251 bytes: same
buffering on, file_put_contents, LOCK_EX, 0 bytes: same
buffering on, file_put_contents, LOCK_EX, 1 bytes: same
buffering on, file_put_contents, LOCK_EX, 8192 bytes: same
buffering on, file_put_contents, LOCK_EX, 16385 bytes: same
buffering on, file_put_contents, LOCK_EX, 65536 bytes: same
buffering on, file_put_contents, LOCK_EX, 2101251 bytes: same
buffering on, Nextcloud, 0 bytes: same
buffering on, Nextcloud, 1 bytes: same
buffering on, Nextcloud, 8192 bytes: same
buffering on, Nextcloud, 16385 bytes: same
buffering on, Nextcloud, 65536 bytes: same
buffering on, Nextcloud, 2101251 bytes: same
buffering on, part only, 0 bytes: same
buffering on, part only, 1 bytes: same
buffering on, part only, 8192 bytes: same
buffering on, part only, 16385 bytes: same
buffering on, part only, 65536 bytes: same
buffering on, part only, 2101251 bytes: same
buffering on, part into a file, 0 bytes: same
buffering on, part into a file, 1 bytes: same
buffering on, part into a file, 8192 bytes: same
buffering on, part into a file, 16385 bytes: same
buffering on, part into a file, 65536 bytes: same
buffering on, part into a file, 2101251 bytes: same
buffering on, two parts into a file, from the socket, 0 bytes: same
buffering on, two parts into a file, from the socket, 1 bytes: same
buffering on, two parts into a file, from the socket, 8192 bytes: same
buffering on, two parts into a file, from the socket, 16385 bytes: same
buffering on, two parts into a file, from the socket, 65536 bytes: same
buffering on, two parts into a file, from the socket, 2101251 bytes: same
buffering on, fastcgi_finish_request() first, 0 bytes: same
buffering on, fastcgi_finish_request() first, 1 bytes: same
buffering on, fastcgi_finish_request() first, 8192 bytes: same
buffering on, fastcgi_finish_request() first, 16385 bytes: same
buffering on, fastcgi_finish_request() first, 65536 bytes: same
buffering on, fastcgi_finish_request() first, 2101251 bytes: same
buffering on, all, rewind, all into a file, 0 bytes: same
buffering on, all, rewind, all into a file, 1 bytes: same
buffering on, all, rewind, all into a file, 8192 bytes: same
buffering on, all, rewind, all into a file, 16385 bytes: same
buffering on, all, rewind, all into a file, 65536 bytes: same
buffering on, all, rewind, all into a file, 2101251 bytes: same
buffering on, 30000, rewind, fread, all into seeked, new handle, 0 bytes: same
buffering on, 30000, rewind, fread, all into seeked, new handle, 1 bytes: same
buffering on, 30000, rewind, fread, all into seeked, new handle, 8192 bytes: same
buffering on, 30000, rewind, fread, all into seeked, new handle, 16385 bytes: same
buffering on, 30000, rewind, fread, all into seeked, new handle, 65536 bytes: same
buffering on, 30000, rewind, fread, all into seeked, new handle, 2101251 bytes: same
override: on
buffering off, copy into a file, 0 bytes: same
buffering off, copy into a file, 1 bytes: same
buffering off, copy into a file, 8192 bytes: same
buffering off, copy into a file, 16385 bytes: same
buffering off, copy into a file, 65536 bytes: same
buffering off, copy into a file, 2101251 bytes: same
buffering off, 1000 then from 5000, 0 bytes: same
buffering off, 1000 then from 5000, 1 bytes: same
buffering off, 1000 then from 5000, 8192 bytes: same
buffering off, 1000 then from 5000, 16385 bytes: same
buffering off, 1000 then from 5000, 65536 bytes: same
buffering off, 1000 then from 5000, 2101251 bytes: same
buffering off, fread, two copies, new handle, 0 bytes: same
buffering off, fread, two copies, new handle, 1 bytes: same
buffering off, fread, two copies, new handle, 8192 bytes: same
buffering off, fread, two copies, new handle, 16385 bytes: same
buffering off, fread, two copies, new handle, 65536 bytes: same
buffering off, fread, two copies, new handle, 2101251 bytes: same
buffering off, file_put_contents, LOCK_EX, 0 bytes: same
buffering off, file_put_contents, LOCK_EX, 1 bytes: same
buffering off, file_put_contents, LOCK_EX, 8192 bytes: same
buffering off, file_put_contents, LOCK_EX, 16385 bytes: same
buffering off, file_put_contents, LOCK_EX, 65536 bytes: same
buffering off, file_put_contents, LOCK_EX, 2101251 bytes: same
buffering off, Nextcloud, 0 bytes: same
buffering off, Nextcloud, 1 bytes: same
buffering off, Nextcloud, 8192 bytes: same
buffering off, Nextcloud, 16385 bytes: same
buffering off, Nextcloud, 65536 bytes: same
buffering off, Nextcloud, 2101251 bytes: same
buffering off, part only, 0 bytes: same
buffering off, part only, 1 bytes: same
buffering off, part only, 8192 bytes: same
buffering off, part only, 16385 bytes: same
buffering off, part only, 65536 bytes: same
buffering off, part only, 2101251 bytes: same
buffering off, part into a file, 0 bytes: same
buffering off, part into a file, 1 bytes: same
buffering off, part into a file, 8192 bytes: same
buffering off, part into a file, 16385 bytes: same
buffering off, part into a file, 65536 bytes: same
buffering off, part into a file, 2101251 bytes: same
buffering off, two parts into a file, from the socket, 0 bytes: same
buffering off, two parts into a file, from the socket, 1 bytes: same
buffering off, two parts into a file, from the socket, 8192 bytes: same
buffering off, two parts into a file, from the socket, 16385 bytes: same
buffering off, two parts into a file, from the socket, 65536 bytes: same
buffering off, two parts into a file, from the socket, 2101251 bytes: same
buffering off, fastcgi_finish_request() first, 0 bytes: same
buffering off, fastcgi_finish_request() first, 1 bytes: same
buffering off, fastcgi_finish_request() first, 8192 bytes: same
buffering off, fastcgi_finish_request() first, 16385 bytes: same
buffering off, all, rewind, all into a file, 0 bytes: same
buffering off, all, rewind, all into a file, 1 bytes: same
buffering off, all, rewind, all into a file, 8192 bytes: same
buffering off, all, rewind, all into a file, 16385 bytes: same
buffering off, all, rewind, all into a file, 65536 bytes: same
buffering off, all, rewind, all into a file, 2101251 bytes: same
buffering off, 30000, rewind, fread, all into seeked, new handle, 0 bytes: same
buffering off, 30000, rewind, fread, all into seeked, new handle, 1 bytes: same
buffering off, 30000, rewind, fread, all into seeked, new handle, 8192 bytes: same
buffering off, 30000, rewind, fread, all into seeked, new handle, 16385 bytes: same
buffering off, 30000, rewind, fread, all into seeked, new handle, 65536 bytes: same
buffering off, 30000, rewind, fread, all into seeked, new handle, 2101251 bytes: same
buffering off, hang-up after 1051576 bytes, copy: same
buffering off, hang-up after 1051576 bytes, Nextcloud: same
buffering off, hang-up after 8191 bytes, copy: same
buffering off, hang-up after 8191 bytes, Nextcloud: same
buffering off, hang-up after 100 bytes, copy: same
buffering off, hang-up after 100 bytes, Nextcloud: same
override: on
buffering off, spool_clone off, copy into a file, 0 bytes: same
buffering off, spool_clone off, copy into a file, 1 bytes: same
buffering off, spool_clone off, copy into a file, 8192 bytes: same
buffering off, spool_clone off, copy into a file, 16385 bytes: same
buffering off, spool_clone off, copy into a file, 65536 bytes: same
buffering off, spool_clone off, copy into a file, 2101251 bytes: same
buffering off, spool_clone off, 1000 then from 5000, 0 bytes: same
buffering off, spool_clone off, 1000 then from 5000, 1 bytes: same
buffering off, spool_clone off, 1000 then from 5000, 8192 bytes: same
buffering off, spool_clone off, 1000 then from 5000, 16385 bytes: same
buffering off, spool_clone off, 1000 then from 5000, 65536 bytes: same
buffering off, spool_clone off, 1000 then from 5000, 2101251 bytes: same
buffering off, spool_clone off, fread, two copies, new handle, 0 bytes: same
buffering off, spool_clone off, fread, two copies, new handle, 1 bytes: same
buffering off, spool_clone off, fread, two copies, new handle, 8192 bytes: same
buffering off, spool_clone off, fread, two copies, new handle, 16385 bytes: same
buffering off, spool_clone off, fread, two copies, new handle, 65536 bytes: same
buffering off, spool_clone off, fread, two copies, new handle, 2101251 bytes: same
buffering off, spool_clone off, file_put_contents, LOCK_EX, 0 bytes: same
buffering off, spool_clone off, file_put_contents, LOCK_EX, 1 bytes: same
buffering off, spool_clone off, file_put_contents, LOCK_EX, 8192 bytes: same
buffering off, spool_clone off, file_put_contents, LOCK_EX, 16385 bytes: same
buffering off, spool_clone off, file_put_contents, LOCK_EX, 65536 bytes: same
buffering off, spool_clone off, file_put_contents, LOCK_EX, 2101251 bytes: same
buffering off, spool_clone off, Nextcloud, 0 bytes: same
buffering off, spool_clone off, Nextcloud, 1 bytes: same
buffering off, spool_clone off, Nextcloud, 8192 bytes: same
buffering off, spool_clone off, Nextcloud, 16385 bytes: same
buffering off, spool_clone off, Nextcloud, 65536 bytes: same
buffering off, spool_clone off, Nextcloud, 2101251 bytes: same
buffering off, spool_clone off, part only, 0 bytes: same
buffering off, spool_clone off, part only, 1 bytes: same
buffering off, spool_clone off, part only, 8192 bytes: same
buffering off, spool_clone off, part only, 16385 bytes: same
buffering off, spool_clone off, part only, 65536 bytes: same
buffering off, spool_clone off, part only, 2101251 bytes: same
buffering off, spool_clone off, part into a file, 0 bytes: same
buffering off, spool_clone off, part into a file, 1 bytes: same
buffering off, spool_clone off, part into a file, 8192 bytes: same
buffering off, spool_clone off, part into a file, 16385 bytes: same
buffering off, spool_clone off, part into a file, 65536 bytes: same
buffering off, spool_clone off, part into a file, 2101251 bytes: same
buffering off, spool_clone off, two parts into a file, from the socket, 0 bytes: same
buffering off, spool_clone off, two parts into a file, from the socket, 1 bytes: same
buffering off, spool_clone off, two parts into a file, from the socket, 8192 bytes: same
buffering off, spool_clone off, two parts into a file, from the socket, 16385 bytes: same
buffering off, spool_clone off, two parts into a file, from the socket, 65536 bytes: same
buffering off, spool_clone off, two parts into a file, from the socket, 2101251 bytes: same
buffering off, spool_clone off, fastcgi_finish_request() first, 0 bytes: same
buffering off, spool_clone off, fastcgi_finish_request() first, 1 bytes: same
buffering off, spool_clone off, fastcgi_finish_request() first, 8192 bytes: same
buffering off, spool_clone off, fastcgi_finish_request() first, 16385 bytes: same
buffering off, spool_clone off, all, rewind, all into a file, 0 bytes: same
buffering off, spool_clone off, all, rewind, all into a file, 1 bytes: same
buffering off, spool_clone off, all, rewind, all into a file, 8192 bytes: same
buffering off, spool_clone off, all, rewind, all into a file, 16385 bytes: same
buffering off, spool_clone off, all, rewind, all into a file, 65536 bytes: same
buffering off, spool_clone off, all, rewind, all into a file, 2101251 bytes: same
buffering off, spool_clone off, 30000, rewind, fread, all into seeked, new handle, 0 bytes: same
buffering off, spool_clone off, 30000, rewind, fread, all into seeked, new handle, 1 bytes: same
buffering off, spool_clone off, 30000, rewind, fread, all into seeked, new handle, 8192 bytes: same
buffering off, spool_clone off, 30000, rewind, fread, all into seeked, new handle, 16385 bytes: same
buffering off, spool_clone off, 30000, rewind, fread, all into seeked, new handle, 65536 bytes: same
buffering off, spool_clone off, 30000, rewind, fread, all into seeked, new handle, 2101251 bytes: same
buffering off, spool_clone off, hang-up after 1051576 bytes, copy: same
buffering off, spool_clone off, hang-up after 1051576 bytes, Nextcloud: same
buffering off, spool_clone off, hang-up after 8191 bytes, copy: same
buffering off, spool_clone off, hang-up after 8191 bytes, Nextcloud: same
buffering off, spool_clone off, hang-up after 100 bytes, copy: same
buffering off, spool_clone off, hang-up after 100 bytes, Nextcloud: same
the splice route carried bodies
done
