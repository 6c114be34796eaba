--TEST--
A read filter that changes the length, partly read, then copied into a file: the copy goes on where the filter left off (docs/differences.md, 13)
--DESCRIPTION--
Stock 8.2, finding the source's read buffer empty and both streams plain files, tries
copy_file_range(): php_stream_cast() first seeks the descriptor under the filter to the
filtered position, then refuses the cast because the stream is filtered, and the copy
reads on from that wrong raw offset (base64: 8192 encoded bytes read = 6144 raw, the
descriptor is moved to 8192). fastcopy never casts a filtered stream.
--SKIPIF--
<?php if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded'); ?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

$data = fc_text(30000, 5);
$src = fc_file_with($data, 'src');
$filters = [
    'convert.base64-encode' => base64_encode(...),
    'zlib.deflate' => gzdeflate(...),
    'string.toupper' => strtoupper(...),
];

foreach ($filters as $filter => $apply) {
    $logical = $apply($data);
    // chunk size 1 makes the read-ahead end with an empty read buffer, as stock needs
    // for the bug; the default chunk size leaves bytes buffered.
    foreach ([1, 8192] as $chunk) {
        foreach (['file', 'file+rot13'] as $dstKind) {
            $in = fopen($src, 'rb');
            stream_filter_append($in, $filter, STREAM_FILTER_READ);
            stream_set_chunk_size($in, $chunk);
            $ahead = fread($in, 8192);
            $path = fc_tmp('dst');
            $out = fopen($path, 'wb');
            if ($dstKind === 'file+rot13') {
                stream_filter_append($out, 'string.rot13', STREAM_FILTER_WRITE);
            }
            $n = fastcopy_stream($in, $out);
            $inPos = ftell($in);
            $outPos = ftell($out);
            $eof = feof($in);
            fclose($in);
            fclose($out);
            $got = file_get_contents($path);
            if ($dstKind === 'file+rot13') {
                $got = str_rot13($got);
            }
            $rest = strlen($logical) - strlen($ahead);
            printf("%s chunk=%d -> %s: %s\n", $filter, $chunk, $dstKind,
                $n === $rest && $ahead . $got === $logical && $inPos === strlen($logical) && $outPos === $rest && $eof
                    ? 'the rest, in order'
                    : sprintf('returned %s of %d, bytes %s, positions %s/%s', var_export($n, true), $rest,
                        $ahead . $got === $logical ? 'right' : 'WRONG', var_export($inPos, true), var_export($outPos, true)));
        }
    }
}
?>
--CLEAN--
<?php require __DIR__ . '/../inc/streams.inc'; fc_clean(); ?>
--EXPECT--
convert.base64-encode chunk=1 -> file: the rest, in order
convert.base64-encode chunk=1 -> file+rot13: the rest, in order
convert.base64-encode chunk=8192 -> file: the rest, in order
convert.base64-encode chunk=8192 -> file+rot13: the rest, in order
zlib.deflate chunk=1 -> file: the rest, in order
zlib.deflate chunk=1 -> file+rot13: the rest, in order
zlib.deflate chunk=8192 -> file: the rest, in order
zlib.deflate chunk=8192 -> file+rot13: the rest, in order
string.toupper chunk=1 -> file: the rest, in order
string.toupper chunk=1 -> file+rot13: the rest, in order
string.toupper chunk=8192 -> file: the rest, in order
string.toupper chunk=8192 -> file+rot13: the rest, in order
