--TEST--
Uploads through nginx + PHP-FPM into a destination that fills up (a tmpfs; an ext4 and an XFS nearly full holding the spool too, where the body is read a fill at a time, or on XFS with fastcopy.spool_clone=1 takes the splice route), stock vs fastcopy.override: stock's count, stored bytes and notice where the body is read into the buffer (on the splice route, whose clone takes no room, at least stock's bytes), and every byte the spool holds stored or returned by the next read
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/../integration/harness.inc';
if (getenv('USE_ZEND_ALLOC') === '0' && getenv('ZEND_DONT_UNLOAD_MODULES') === '1') {
    die('skip under valgrind (run-tests.php -m): see fpm_valgrind.phpt');
}
require __DIR__ . '/filesystems.inc';
fs_skipif(['mkfs.xfs', 'mkfs.ext4']);
?>
--FILE--
<?php
require __DIR__ . '/fpm.inc';
require __DIR__ . '/filesystems.inc';

$tmp = fcint_tmpdir('uploads-fulldest');

/**
 * One scenario whose first step fills the destination up, on both stacks, each run on
 * a filesystem made afresh by $mount (which returns the destinations' directory) and
 * removed by $unmount. docs/differences.md, 9: where a write fails, stock drops what it
 * had read and not written, fastcopy gives it back in front of php://input's read
 * buffer, with the later fills of the batch it had already read. So where the body is
 * read into the buffer (only the destination filling up, or a nearly full filesystem
 * holding both, read a fill at a time), the count, the stored bytes, the one notice and
 * a re-read of the body must be stock's. With $route (the splice route on XFS, which
 * must have run) the spool shares the stored file's blocks, so the filesystem takes
 * more of the body than stock's two copies of it: the override stores at least as
 * much, and the spool may be what fills up. Either way nothing is lost: every byte the spool holds (what a re-read returns)
 * is stored or returned by the next read.
 */
function fulldest_compare(array $servers, string $label, array $ops, string $body, callable $mount,
    callable $unmount, bool $route, string $edge = 'fastcgi_input'): void
{
    $runs = [];
    foreach ($servers as $mode => $srv) {
        $dir = $mount();
        if ($dir === null) {
            fcint_fail("$label [$mode]: no filesystem to test on");
            return;
        }
        $run = fcup_fpm_put($srv, $mode, $ops, $body, null, ['dir' => $dir]);
        $unmount();
        if ($run === null) {
            fcint_fail("$label [$mode]: the script logged nothing\n" . $srv->logs());
            return;
        }
        $runs[$mode] = $run;
    }
    $why = [];
    $size = filesize($body);
    foreach ($runs as $mode => $run) {
        [, $ret, $state, $diag] = $run['report']['steps'][0];
        if (($ret !== false && !$route) || count($diag) > 1 || (!$route && count($diag) === 0)
                || ($diag && !str_contains($diag[0], 'No space left on device'))) {
            $why[] = "$mode: not false with one ENOSPC notice: " . json_encode([$ret, $diag]);
        }
        if ($state[0] + $state[1] !== $state[3]) {
            $why[] = "$mode: position {$state[0]} + read buffer {$state[1]} is not the spool's {$state[3]} bytes";
        }
        $stored = reset($run['report']['dests'])[2];
        if ($stored >= $size) {
            $why[] = "$mode: the destination took the whole body ($stored bytes)";
        }
    }
    if (isset($runs['override'])) {
        $s = $runs['stock']['report'];
        $o = $runs['override']['report'];
        $norm = fn (array $d) => preg_replace('/\d+ bytes/', 'N bytes', $d);
        if ($route) {
            if (reset($o['dests'])[2] < reset($s['dests'])[2]) {
                $why[] = 'the override stored less than stock: ' . json_encode([$s['dests'], $o['dests']]);
            }
        } else {
            foreach (['dests', 'reread'] as $k) {
                if ($s[$k] !== $o[$k]) {
                    $why[] = "$k differs: stock " . json_encode($s[$k]) . ', override ' . json_encode($o[$k]);
                }
            }
            if ($norm($s['steps'][0][3]) !== $norm($o['steps'][0][3])) {
                $why[] = 'the notices differ: ' . json_encode([$s['steps'][0][3], $o['steps'][0][3]]);
            }
        }
        // nothing lost: what the spool holds is stored, or what the next read returns
        $stored = reset($o['dests'])[2];
        [$got, $md5] = $o['steps'][1][1];
        $held = $o['reread'][0];
        if ($o['steps'][0][2][0] !== $stored || $stored + $got !== $held
                || md5(file_get_contents($body, false, null, 0, $held)) !== $o['reread'][1]
                || md5((string) file_get_contents($body, false, null, $stored, $got)) !== $md5) {
            $why[] = "override: $stored bytes stored, position {$o['steps'][0][2][0]}, then $got read of the $held the spool holds";
        }
        $d = fc_stats_delta($runs['override']['before'], $runs['override']['after'])[$edge];
        if ($d['bytes'] === 0) {
            $why[] = "nothing on $edge: " . json_encode($d);
        }
        if ($route && ($d['spliced'] ?? 0) === 0) {
            $why[] = 'the splice route did not run: ' . json_encode($d);
        }
    }
    echo $label, ': ', $why ? 'DIFFERS: ' . implode("\n", $why) : 'same', "\n";
}

$ops = [
    'copy' => [['copy', null, 0, 'file'], ['get'], ['rewind'], ['get']],
    'file_put_contents()' => [['fpc', 'file', 0], ['get']],
    'copy of 3 MiB' => [['copy', 3 << 20, 0, 'file'], ['get']],
];
$body = fcup_body((8 << 20) + 4321);
$mounted = [];
$unmount = function () use (&$mounted): void {
    fs_unmount($mounted);
    $mounted = [];
};
/* The destination on a 2 MiB tmpfs, the spool on the test's disk: the buffered batch. */
$tmpfs = function () use ($tmp, &$mounted): ?string {
    return fs_mount($tmp, 'tmpfs', $mounted, '2m');
};
/* The file and the spool on an XFS with reflink, or an ext4, that has about 6 MiB left. */
$nearlyFull = function (string $fs) use ($tmp, &$mounted): callable {
    return function () use ($tmp, $fs, &$mounted): ?string {
        $dir = fs_mount($tmp, $fs, $mounted);
        if ($dir === null) {
            return null;
        }
        exec('fallocate -l ' . max(0, (int) disk_free_space($dir) - (6 << 20)) . ' ' . escapeshellarg("$dir/filler") . ' 2>&1', $out, $rc);
        return $rc === 0 ? "$dir/files" : null;
    };
};
try {
    // the body from the socket (buffering on and off), or handed over as the file nginx stored
    foreach (['on' => ['listen' => 'tcp'], 'off' => ['nginx' => ['fastcgi_request_buffering off;']],
        'on, body file' => ['nginx' => fcup_body_file_nginx()]] as $buffering => $opt) {
        foreach (['tmpfs' => [$tmpfs, []], 'xfs' => [$nearlyFull('xfs'), ["upload_tmp_dir=$tmp/xfs/spool"]],
            'ext4' => [$nearlyFull('ext4'), ["upload_tmp_dir=$tmp/ext4/spool"]]] as $fs => [$mount, $ini]) {
            $root = "$tmp/www-" . preg_replace('/\W+/', '-', $buffering) . "-$fs";
            mkdir($root);
            // on XFS, request buffering off, the splice route (fastcopy.spool_clone=1); the
            // other stacks read the body into the buffer, one fill at a time on a nearly
            // full filesystem that holds the spool
            $route = $fs === 'xfs' && $buffering === 'off';
            $servers = fcfpm_stacks(fcup_fpm_docroot($root), $root, ['ini' => [...$ini, ...($route ? ['fastcopy.spool_clone=1'] : [])],
                'nginx' => ['client_max_body_size 0;', ...($opt['nginx'] ?? [])]] + $opt);
            foreach ($ops as $name => $o) {
                fulldest_compare($servers, "buffering $buffering, $fs, $name", $o, $body, $mount, $unmount, $route,
                    str_contains($buffering, 'body file') ? 'body_file' : 'fastcgi_input');
            }
            foreach ($servers as $srv) {
                $srv->stop();
            }
        }
    }
} finally {
    $unmount();
}
fcint_done();
?>
--CLEAN--
<?php
require __DIR__ . '/filesystems.inc';
fs_unmount_leftovers('uploads-fulldest');
?>
--EXPECT--
override: on
buffering on, tmpfs, copy: same
buffering on, tmpfs, file_put_contents(): same
buffering on, tmpfs, copy of 3 MiB: same
override: on
buffering on, xfs, copy: same
buffering on, xfs, file_put_contents(): same
buffering on, xfs, copy of 3 MiB: same
override: on
buffering on, ext4, copy: same
buffering on, ext4, file_put_contents(): same
buffering on, ext4, copy of 3 MiB: same
override: on
buffering off, tmpfs, copy: same
buffering off, tmpfs, file_put_contents(): same
buffering off, tmpfs, copy of 3 MiB: same
override: on
buffering off, xfs, copy: same
buffering off, xfs, file_put_contents(): same
buffering off, xfs, copy of 3 MiB: same
override: on
buffering off, ext4, copy: same
buffering off, ext4, file_put_contents(): same
buffering off, ext4, copy of 3 MiB: same
override: on
buffering on, body file, tmpfs, copy: same
buffering on, body file, tmpfs, file_put_contents(): same
buffering on, body file, tmpfs, copy of 3 MiB: same
override: on
buffering on, body file, xfs, copy: same
buffering on, body file, xfs, file_put_contents(): same
buffering on, body file, xfs, copy of 3 MiB: same
override: on
buffering on, body file, ext4, copy: same
buffering on, body file, ext4, file_put_contents(): same
buffering on, body file, ext4, copy of 3 MiB: same
done
