--TEST--
Uploads through nginx + PHP-FPM with the body handed over as a file (client_body_in_file_only, REQUEST_BODY_FILE): fpm_put.phpt's whole matrix and stored bodies that are not what CONTENT_LENGTH says, on a unix-socket pool with kept FastCGI connections, stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/../integration/harness.inc';
if (getenv('USE_ZEND_ALLOC') === '0' && getenv('ZEND_DONT_UNLOAD_MODULES') === '1') {
    die('skip under valgrind (run-tests.php -m): see fpm_valgrind.phpt');
}
fcint_skipif(['nginx', 'fpm', 'curl', 'dav']);
?>
--FILE--
<?php
require __DIR__ . '/put_matrix.inc';

/* Where a copy takes the rest of the body from a stored file that holds exactly
 * CONTENT_LENGTH bytes, the spool becomes that file (spool_shared counts what it
 * took so); where it takes part of it, or the file holds more, the fills are
 * copied into the spool. */
$shared = 0;
$check = function (string $label, array $run) use (&$shared): void {
    $d = fc_stats_delta($run['before'], $run['after'])['body_file'];
    $spool = $d['spool_shared'] ?? 0;
    // (a part of 100,001 bytes or two of 65,536 and 40,000 take all of a 65,536-byte body)
    $part = str_contains($label, 'stored body longer')
        || (preg_match('/parts? into a file/', $label) && !str_ends_with($label, ', 65536 bytes'));
    if ($spool > $d['bytes'] || ($part ? $spool !== 0 : $spool === 0)) {
        fcint_fail("$label: " . json_encode($d));
    }
    $shared += $spool > 0 ? 1 : 0;
};
// kept FastCGI connections: a part left unread, the next request comes on the same one
$stacks = ['on, body file' => ['keepalive' => 2, 'nginx' => ['client_max_body_size 0;', ...fcup_body_file_nginx()]]];
fcup_put_stacks(fcint_tmpdir('uploads-body-file'), $stacks, [], [], $check, 'body_file');
echo "copies whose spool became the stored body: $shared\n";
fcint_done();
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
override: on
buffering on, body file: 102 PUTs the same
copies whose spool became the stored body: 8
done
