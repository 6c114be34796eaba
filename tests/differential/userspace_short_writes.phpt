--TEST--
differential: userspace destinations whose stream_write() returns 0, -1 or short counts - fastcopy_stream() == stream_copy_to_stream()
--DESCRIPTION--
A stream_write() that stores part of a block and then returns 0 makes
php_stream_write() come back short. From a regular file stock writes each mapping
once and gives up there; from any other source its read loop calls stream_write()
once more with the rest. fastcopy used to call it once more from a file too. Compared:
return value, bytes stored, ftell() of the destination, diagnostics, and how many
times stream_write() was called after it first returned 0 or less. ftell() of the
source is where the bytes stored end (docs/differences.md, 2), not 8 KiB
further on as with stock. Stock maps a file only from a position that is a multiple
of the page size, so file sources start at 0 or one page in (the page size of the
machine running the test).
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

final class ScriptedSink
{
    /** @var callable(int $len, int $call): int */
    public static $answer;
    public static string $stored = '';
    public static int $calls = 0;
    public static ?int $firstRefusal = null;
    public $context;

    public function stream_open(string $path, string $mode, int $options, ?string &$opened): bool
    {
        return true;
    }

    public function stream_write(string $data): int
    {
        $r = (self::$answer)(strlen($data), self::$calls);
        if ($r <= 0) {
            self::$firstRefusal ??= self::$calls;
        }
        self::$calls++;
        self::$stored .= substr($data, 0, max(0, min($r, strlen($data))));
        return $r;
    }
}
stream_wrapper_register('scripted', ScriptedSink::class);

$answers = [
    'refuses at once' => fn($n, $i) => 0,
    'fails at once' => fn($n, $i) => -1,
    'stores 5, then 0, then all' => fn($n, $i) => [5, 0][$i] ?? $n,
    'stores 5, then always 0' => fn($n, $i) => $i === 0 ? 5 : 0,
    'stores 1000 a call' => fn($n, $i) => min($n, 1000),
    'stores 1000 three times, then 0' => fn($n, $i) => $i < 3 ? min($n, 1000) : 0,
    'stores 8191 a call' => fn($n, $i) => min($n, 8191),
];
$page = fc_page_size();
$data = fc_bytes($page + 30000, 3);   // 30000 bytes after the first page
$file = fc_file_with($data);
$sources = [
    'file' => fn() => fopen($file, 'r'),
    'file one page in' => function () use ($file, $page) { $s = fopen($file, 'r'); fseek($s, $page); return $s; },
    'memory' => function () use ($data) { $s = fopen('php://memory', 'w+'); fwrite($s, $data); rewind($s); return $s; },
    'temp' => function () use ($data) { $s = fopen('php://temp', 'w+'); fwrite($s, $data); rewind($s); return $s; },
];

function run_one(string $fn, callable $open, callable $answer, ?int $len): array
{
    ScriptedSink::$answer = $answer;
    ScriptedSink::$stored = '';
    ScriptedSink::$calls = 0;
    ScriptedSink::$firstRefusal = null;
    $src = $open();
    $start = ftell($src);
    $dst = fopen('scripted://sink', 'w');
    $diag = [];
    set_error_handler(function (int $no, string $msg) use (&$diag) {
        $diag[] = fc_errname($no) . ': ' . fc_normalise_msg($msg);
        return true;
    });
    $ret = $len === null ? $fn($src, $dst) : $fn($src, $dst, $len);
    restore_error_handler();
    $r = [
        'ret' => $ret,
        'out' => ScriptedSink::$stored,
        'dst_pos' => ftell($dst),
        'diag' => $diag,
        'calls after refusal' => ScriptedSink::$firstRefusal === null ? null : ScriptedSink::$calls - ScriptedSink::$firstRefusal - 1,
        'src at' => ftell($src) - $start,
    ];
    fclose($src);
    fclose($dst);
    return $r;
}

$cases = $bad = 0;
foreach ($sources as $sname => $open) {
    foreach ($answers as $aname => $answer) {
        foreach ([null, 10000] as $len) {
            $cases++;
            $stock = run_one('stream_copy_to_stream', $open, $answer, $len);
            $fast = run_one('fastcopy_stream', $open, $answer, $len);
            $d = fc_diff_results($stock, $fast, ['ret', 'out', 'dst_pos', 'diag', 'calls after refusal']);
            // the source continues at the first byte not stored
            if ($fast['src at'] !== strlen($fast['out'])) {
                $d[] = "source at +{$fast['src at']} after " . strlen($fast['out']) . ' bytes stored';
            }
            if ($d) {
                $bad++;
                printf("%s, %s, length %s:\n    %s\n", $sname, $aname, var_export($len, true), implode("\n    ", $d));
            }
        }
    }
}
printf("%d cases, %d differ\n", $cases, $bad);

// the report's case, from a file: stock gives up at the first 0, and so does fastcopy
foreach (['stream_copy_to_stream', 'fastcopy_stream'] as $fn) {
    $r = run_one($fn, $sources['file'], $answers['stores 5, then 0, then all'], null);
    printf("%s: %s, %d bytes stored, %d calls after the 0\n", $fn, var_export($r['ret'], true), strlen($r['out']),
        $r['calls after refusal']);
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
56 cases, 0 differ
stream_copy_to_stream: false, 5 bytes stored, 0 calls after the 0
fastcopy_stream: false, 5 bytes stored, 0 calls after the 0
