--TEST--
Uploads through nginx + PHP-FPM: sabre/dav 4.7.0's FS PUT (file_put_contents() of php://input), new files and overwrites, stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/../integration/harness.inc';
// valgrind would follow this process into nginx and PHP-FPM: fpm_valgrind.phpt runs PHP-FPM in it
if (getenv('USE_ZEND_ALLOC') === '0' && getenv('ZEND_DONT_UNLOAD_MODULES') === '1') {
    die('skip under valgrind (run-tests.php -m): see fpm_valgrind.phpt');
}
fcint_skipif(['nginx', 'fpm', 'curl', 'dav']);
?>
--FILE--
<?php
require __DIR__ . '/fpm.inc';

$tmp = fcint_tmpdir('uploads-sabre');
$docroot = fcup_fpm_docroot($tmp);
$servers = fcfpm_stacks($docroot, $tmp, ['ini' => fclib_ini(),
    'nginx' => ['client_max_body_size 0;', 'fastcgi_request_buffering off;']]);

foreach ([0, 1, 16385, (3 << 20) + 5] as $size) {
    $body = fcup_body($size);
    $want = hash_file('sha256', $body);
    foreach (['new file' => 201, 'overwrite' => 204] as $what => $status) {
        $res = [];
        foreach ($servers as $mode => $srv) {
            $before = fchttp_get_json($srv->url('stats.php'));
            $r = $res[$mode] = fchttp_get($srv->url("dav.php/put-$size-$mode.bin"),
                ['method' => 'PUT', 'data' => "@$body", 'Content-Type: application/octet-stream', 'Expect:']);
            $after = fchttp_get_json($srv->url('stats.php'));
            $label = "sabre PUT, $what, $size bytes [$mode]";
            if ($r['status'] !== $status) {
                fcint_fail("$label: status {$r['status']}, want $status\n" . $r['head']);
            }
            clearstatcache();
            if (hash_file('sha256', "$tmp/dav/put-$size-$mode.bin") !== $want) {
                fcint_fail("$label: the stored file is not the body");
            }
            if ($mode === 'override') {
                fchttp_same($label, $res['stock'], $r);
                // file_put_contents() carried the body, from PHP-FPM's socket
                fchttp_assert_path($mode, $label, $before, $after, 'fastcgi_input', $size, false);
                $d = fc_stats_delta($before['stats'], $after['stats']);
                if (fc_stats_path_bytes($d) !== $size) {
                    fcint_fail("$label: the engine counted " . fc_stats_path_bytes($d) . " bytes, want $size");
                }
            }
        }
        echo "sabre PUT, $what, $size bytes: done\n";
    }
}
fcint_done();
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
override: on
sabre PUT, new file, 0 bytes: done
sabre PUT, overwrite, 0 bytes: done
sabre PUT, new file, 1 bytes: done
sabre PUT, overwrite, 1 bytes: done
sabre PUT, new file, 16385 bytes: done
sabre PUT, overwrite, 16385 bytes: done
sabre PUT, new file, 3145733 bytes: done
sabre PUT, overwrite, 3145733 bytes: done
done
