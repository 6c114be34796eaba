--TEST--
The hand-over behind nginx (conf/nginx's files): a file sent whole by readfile(), fpassthru(), stream_copy_to_stream() or sabre/http's pieces leaves as X-Accel-Redirect and nginx sends it, the answer and what the script sees as stock's; everything nginx would not send as PHP's (a status, a header, output before or after, a flush, part of a file, a Content-Length not the file's, a conditional request, a file changed after the copy) goes the fastcgi path's way, exactly; on kept FastCGI connections; stock vs fastcopy.override
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

$tmp = fcint_tmpdir('handover-nginx');
$data = fcho_data($tmp);
// /plain/info.php runs info.php without the hand-over's parameters
$servers = fcho_nginx_stacks($tmp, $data, ['keepalive' => 2, 'server' => ['location = /plain/info.php {',
    '    fastcgi_pass {FPM};', '    fastcgi_param SCRIPT_FILENAME $document_root/info.php;',
    '    fastcgi_param REQUEST_METHOD GET;', '}']]);
fcho_matrix($servers, 'nginx');

// phpinfo() says whether the hand-over is declared for this request: the PHP
// location's requests, and one from a location without the parameters.
foreach (['info.php', 'plain/info.php'] as $path) {
    $f = tempnam($tmp, 'info');
    fcint_run([fcint_tool('curl'), '-sS', $servers['override']->url($path)], $f);
    echo implode("\n", preg_grep('/^handover: /', file($f, FILE_IGNORE_NEW_LINES))), "\n";
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
readfile: ok
fpassthru: ok
stream_copy_to_stream: ok
sabre/http's 4 MiB pieces: ok
its own Content-Length: ok
ETag and Last-Modified: ok
cookies, caching, a disposition: ok
a buffer started after the copy, left empty: ok
a buffer around the copy: ok
header() after the copy (its warning): ok
fastcgi_finish_request() after the copy: ok
exit in a shutdown function: ok
the file removed after the copy: ok
the file replaced after the copy: ok
If-None-Match: "v1": ok
If-Modified-Since: ok
Range, which the script ignores: ok
If-Range: ok
If-Match: *: ok
If-Match: "v1": ok
If-None-Match: *: ok
If-Unmodified-Since: ok
status 203: ok
sabre/http's 206 for a range: ok
a header nginx is not told to give back: ok
ETag twice: ok
output before the file: ok
output after the file: ok
output in a shutdown function: ok
a flush after the file: ok
from an offset: ok
a length: ok
a Content-Length not the file's: ok
HEAD: ok
a file outside the directory: ok
fastcopy.disable=handover: ok
a file smaller than output_buffering: ok
an empty file: ok
handover: available
handover: unavailable (not for this request: no FASTCOPY_HANDOVER parameter for this request)
done
