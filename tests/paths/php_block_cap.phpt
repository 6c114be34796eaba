--TEST--
Blocks that PHP code receives as strings stay at most 256 KiB, whatever fastcopy.buffer_size says
--DESCRIPTION--
A userspace wrapper's stream_read()/stream_write() and an output handler's callback
get the engine's blocks as PHP strings. The engine's block buffer and such a string
must fit together in one of Zend's 2 MiB chunks, or the string's chunk is mapped and
unmapped on every block (src/paths/buffered.c), so those blocks are capped at 256 KiB.
Smaller settings still apply.
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
fastcopy.buffer_size=4M
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

/* Forwards to a real file and records the sizes PHP code was handed. */
final class SizeSpy
{
    public static array $reads = [];
    public static array $writes = [];
    public $context;
    private $fp;

    public function stream_open(string $path, string $mode, int $options, ?string &$opened): bool
    {
        $this->fp = fopen(substr($path, strlen('spy://')), $mode);
        return $this->fp !== false;
    }
    public function stream_read(int $count): string|false
    {
        self::$reads[] = $count;
        return fread($this->fp, $count);
    }
    public function stream_write(string $data): int
    {
        self::$writes[] = strlen($data);
        return fwrite($this->fp, $data);
    }
    public function stream_eof(): bool { return feof($this->fp); }
    public function stream_close(): void { fclose($this->fp); }
    public function stream_stat(): array|false { return fstat($this->fp); }
}
stream_wrapper_register('spy', SizeSpy::class);

$size = 6 * 1024 * 1024 + 12345;
$data = fc_bytes($size, 7);
$src = fc_file_with($data, 'src');

function report(string $what, array $sizes, int $copied, string $got, string $data): void
{
    printf("%s: %s, largest %d, %s\n", $what, $copied === strlen($data) ? 'all bytes' : "copied $copied",
        max($sizes), $got === $data ? 'same bytes' : 'DIFFERENT bytes');
}

foreach (['4M' => 256 << 10, '64K' => 64 << 10] as $setting => $block) {
    ini_set('fastcopy.buffer_size', $setting);
    echo "buffer_size=$setting\n";

    SizeSpy::$reads = [];
    $dst = fc_tmp('dst');
    $in = fopen("spy://$src", 'rb');
    $out = fopen($dst, 'wb');
    $n = fastcopy_stream($in, $out);
    fclose($in);
    fclose($out);
    report('  userspace source', SizeSpy::$reads, $n, file_get_contents($dst), $data);
    // One stock-sized first block, the rest in full blocks, and the call that sees EOF.
    $calls = count(SizeSpy::$reads);
    printf("  stream_read() calls: %s\n", $calls <= intdiv($size, $block) + 3 ? 'one per block' : $calls);

    SizeSpy::$writes = [];
    $dst = fc_tmp('dst');
    $in = fopen($src, 'rb');
    $out = fopen("spy://$dst", 'wb');
    // PHP itself cuts writes to a userspace stream at its chunk size (GH-13071).
    stream_set_chunk_size($out, 8 << 20);
    $n = fastcopy_stream($in, $out);
    fclose($in);
    fclose($out);
    report('  userspace destination', SizeSpy::$writes, $n, file_get_contents($dst), $data);

    $chunks = [];
    $got = '';
    ob_start(function (string $buf) use (&$chunks, &$got): string {
        $chunks[] = strlen($buf);
        $got .= $buf;
        return '';
    }, 4096);
    $in = fopen($src, 'rb');
    $n = fastcopy_stream($in, fopen('php://output', 'wb'));
    ob_end_flush();
    fclose($in);
    report('  output handler', $chunks, $n, $got, $data);
}
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
buffer_size=4M
  userspace source: all bytes, largest 262144, same bytes
  stream_read() calls: one per block
  userspace destination: all bytes, largest 262144, same bytes
  output handler: all bytes, largest 262144, same bytes
buffer_size=64K
  userspace source: all bytes, largest 65536, same bytes
  stream_read() calls: one per block
  userspace destination: all bytes, largest 65536, same bytes
  output handler: all bytes, largest 65536, same bytes
