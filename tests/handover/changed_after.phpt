--TEST--
The hand-over and a file changed in place after the copy (docs/differences.md, 24): the file is sent when the script has ended, so a file rewritten in place is sent as it is then, and a file cut below what was copied cannot be sent whole: the client gets what the file still has, ended as a file cut during any send is (docs/shrinking-files.md: nginx ends a chunked answer there), and the worker's connection ends; a file removed or replaced still arrives as it was (nginx.phpt); stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/handover.inc';
fcho_skipif(['nginx']);
?>
--FILE--
<?php
require __DIR__ . '/handover.inc';

$tmp = fcint_tmpdir('handover-changed');
$data = fcho_data($tmp);
$servers = fcho_nginx_stacks($tmp, $data);
$original = hash_file('sha256', "$data/big.bin");
$rewritten = hash('sha256', 'REWRITTEN' . substr(file_get_contents("$data/big.bin"), 9));
foreach ($servers as $mode => $srv) {
    $r = fcho_get($srv, $mode, ['f' => "rw-$mode.bin", 'copy_of' => 'big.bin', 'rewrite' => 1], []);
    echo "rewritten [$mode]: the client got ", $r['sha256'] === $original ? 'the file as copied'
        : ($r['sha256'] === $rewritten ? 'the file as rewritten' : 'something else'),
        $mode === 'stock' ? '' : ', ' . json_encode($r['stats']['fallbacks'] ?? null), "\n";
    $r = fcho_get($srv, $mode, ['f' => "cut-$mode.bin", 'copy_of' => 'big.bin', 'truncate' => 1000], []);
    $prefix = $r['bytes'] <= 1000 && $r['sha256'] === hash('sha256', substr(file_get_contents("$data/big.bin"), 0, $r['bytes']));
    echo "cut to 1000 bytes [$mode]: the client got ", $r['sha256'] === $original ? 'the file as copied'
        : ($prefix ? "the {$r['bytes']} bytes the file still has" : "{$r['bytes']} other bytes"),
        $mode === 'stock' ? '' : ', ' . json_encode($r['stats']['fallbacks'] ?? null), "\n";
    // the worker serves the next request whole
    $r = fcho_get($srv, $mode, ['f' => 'big.bin'], []);
    echo "next request [$mode]: ", $r['sha256'] === $original ? 'whole' : 'not whole', "\n";
}
foreach ($servers as $srv) {
    $srv->stop();
}
fcint_done();
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
override: on
rewritten [stock]: the client got the file as copied
cut to 1000 bytes [stock]: the client got the file as copied
next request [stock]: whole
rewritten [override]: the client got the file as rewritten, {"FILE_CHANGED":1}
cut to 1000 bytes [override]: the client got the 1000 bytes the file still has, {"FILE_CHANGED":1}
next request [override]: whole
done
