--TEST--
wrappers: the engine decides on every copy (a read callback set between two copies of one wrapper), and does not see through to a stream it cannot use (INNER_UNUSABLE)
--DESCRIPTION--
One CallbackWrapper around a file, copied in three pieces into php://memory: with
no read callback (seen through), then with one set on the same object (not seen
through: CALLBACK_SET, and the callback sees exactly the bytes fastcopy read from
under the wrapper for that piece), then with it unset again (seen through). Stock
runs the same sequence: return values, positions, the destination's bytes and the
close callback must be the same. Stock's read callback counts its 8 KiB reads
ahead, so only fastcopy's is checked against the piece.
A stream under the wrapper that the engine cannot use is counted as
INNER_UNUSABLE and copied through the wrapper as stock does: a destination
wrapper around a file opened read-only (both fail with the same notice, whose byte
count is the block each tried to write: docs/differences.md, 8; the source's position
is the one of docs/differences.md, 2), and a source wrapper whose stream was closed under it
(both throw the same TypeError from the wrapper's stream_read()).
--SKIPIF--
<?php require __DIR__ . '/../inc/wrappers.inc'; fcw_skipif(); ?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/wrappers.inc';
use Icewind\Streams\CallbackWrapper;

$data = fc_bytes(100003, 9);
$file = fc_file_with($data);

function pieces(string $fn, string $file): array
{
    $closed = 0;
    $w = CallbackWrapper::wrap(fopen($file, 'rb'), null, null, function () use (&$closed) {
        $closed++;
    });
    $out = fopen('php://memory', 'w+b');
    $read = new ReflectionProperty(CallbackWrapper::class, 'readCallback');
    $r = [];
    foreach ([null, 'set', null] as $i => $callback) {
        $seen = 0;
        $read->setValue(stream_get_meta_data($w)['wrapper_data'], $callback ? function (int $n) use (&$seen) {
            $seen += $n;
        } : null);
        $before = fastcopy_stats();
        $ret = $fn($w, $out, $i < 2 ? 30000 : null);
        $d = fc_stats_delta($before, fastcopy_stats())['wrappers'];
        $r['pieces'][] = [$ret, ftell($w), ftell($out)];
        $r['stats'][] = ['calls' => $d['calls'], 'fallbacks' => $d['fallbacks']];
        $r['seen'][] = $seen;
    }
    $r['closed during'] = $closed;
    $r['out'] = md5(stream_get_contents($out, -1, 0));
    fclose($w);
    $r['closed'] = $closed;
    return $r;
}

$stock = pieces('stream_copy_to_stream', $file);
$fast = pieces('fastcopy_stream', $file);
foreach (['pieces', 'out', 'closed during', 'closed'] as $f) {
    echo "$f: ", $stock[$f] === $fast[$f] ? 'as stock' : 'stock ' . json_encode($stock[$f]) . ', fastcopy ' . json_encode($fast[$f]), "\n";
}
echo 'destination: ', $fast['out'] === md5($data) ? 'all bytes' : 'WRONG BYTES', "\n";
echo 'fastcopy stats per piece: ', json_encode($fast['stats']), "\n";
echo 'the read callback saw in the second piece: ', $fast['seen'][1], "\n";

/** One copy with the errors it raised, normalised. */
function attempt(string $fn, $from, $to): array
{
    $diag = [];
    set_error_handler(function (int $no, string $msg) use (&$diag) {
        $diag[] = fc_errname($no) . ': ' . preg_replace('/Write of \d+ bytes/', 'Write of N bytes', fc_normalise_msg($msg));
        return true;
    });
    $before = fastcopy_stats();
    try {
        $ret = $fn($from, $to);
    } catch (Throwable $e) {
        $ret = get_class($e) . ': ' . $e->getMessage();
    } finally {
        restore_error_handler();
    }
    return [$ret, $diag, fc_stats_delta($before, fastcopy_stats())['wrappers']['fallbacks']];
}

foreach (['stream_copy_to_stream', 'fastcopy_stream'] as $fn) {
    $w = CallbackWrapper::wrap(fopen($file, 'rb'), null, null, null);
    [$ret, $diag, $why] = attempt($fn, fopen($file, 'rb'), $w);
    printf("%s into a wrapper around a read-only file: %s, %s, wrapper at %d, %s\n", $fn, var_export($ret, true),
        json_encode($diag), ftell($w), json_encode($fn === 'fastcopy_stream' ? $why : null));
    fclose($w);

    $inner = fopen($file, 'rb');
    $w = CallbackWrapper::wrap($inner, null, null, null);
    fclose($inner);
    [$ret, $diag, $why] = attempt($fn, $w, fopen('php://memory', 'w+b'));
    printf("%s from a wrapper whose stream was closed: %s, %s, %s\n", $fn, $ret, json_encode($diag),
        json_encode($fn === 'fastcopy_stream' ? $why : null));
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
pieces: as stock
out: as stock
closed during: as stock
closed: as stock
destination: all bytes
fastcopy stats per piece: [{"calls":1,"fallbacks":[]},{"calls":0,"fallbacks":{"CALLBACK_SET":1}},{"calls":1,"fallbacks":[]}]
the read callback saw in the second piece: 30000
stream_copy_to_stream into a wrapper around a read-only file: false, ["Notice: fwrite(): Write of N bytes failed with errno=9 Bad file descriptor"], wrapper at 0, null
stream_copy_to_stream from a wrapper whose stream was closed: TypeError: fread(): supplied resource is not a valid stream resource, [], null
fastcopy_stream into a wrapper around a read-only file: false, ["Notice: fwrite(): Write of N bytes failed with errno=9 Bad file descriptor"], wrapper at 0, {"INNER_UNUSABLE":1}
fastcopy_stream from a wrapper whose stream was closed: TypeError: fread(): supplied resource is not a valid stream resource, [], {"INNER_UNUSABLE":1}
