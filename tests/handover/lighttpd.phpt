--TEST--
The hand-over behind lighttpd (X-Sendfile2: the file's path and the range): the cases nginx.phpt answers, each handed over where lighttpd sends what PHP would have (any status but 204, 205 and 304, any header, any range of the file; conditionals and ranges of its own off for a streamed answer), and otherwise the fastcgi path's way, exactly; stock vs fastcopy.override
--SKIPIF--
<?php
require __DIR__ . '/../inc/timeout.inc';
fc_skipif_short_timeout();
require __DIR__ . '/handover.inc';
fcho_skipif(['lighttpd']);
?>
--FILE--
<?php
require __DIR__ . '/handover.inc';

$tmp = fcint_tmpdir('handover-lighttpd');
$data = fcho_data($tmp);
$servers = fcho_front_pairs('lighttpd', $tmp, $data);
fcho_matrix($servers, 'lighttpd');

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
done
