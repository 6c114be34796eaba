--TEST--
Integration: FcfpmStack's options: the pool on TCP, nginx keeping its FastCGI connection open across downloads, extra pool and ini lines; stock vs fastcopy.override
--SKIPIF--
<?php require __DIR__ . '/harness.inc'; fcint_skipif(['nginx', 'fpm', 'curl']); ?>
--FILE--
<?php
require __DIR__ . '/nginx_fpm.inc';

$odd = fcint_data_file(FCINT_ODD_SIZE);
$tmp = fcint_tmpdir('options');
$docroot = fcint_docroot($tmp, ['FCINT_FILES' => ['odd' => $odd['path']]]);
$servers = fcfpm_stacks($docroot, $tmp, ['listen' => 'tcp', 'keepalive' => 2,
    'pool' => ['env[FCINT_POOL_MARK] = from-pool-lines'], 'ini' => ['memory_limit=123M']]);

/* The one FastCGI connection the worker is serving on: [local port, nginx's port]. */
function fastcgi_connection(FcfpmStack $srv, string $label): ?array
{
    $j = fchttp_get_json($srv->url('fastcgi.php'));
    if ($j === null || $j['memory_limit'] !== '123M' || $j['pool_mark'] !== 'from-pool-lines') {
        fcint_fail("$label: the ini or pool lines did not reach the worker: " . json_encode($j));
        return null;
    }
    $fcgi = array_values(array_filter($j['tcp'], fn (array $c) => $c[0] === $srv->fpmPort));
    if (count($fcgi) !== 1) {
        fcint_fail("$label: not one FastCGI connection on port {$srv->fpmPort}: " . json_encode($j['tcp']));
        return null;
    }
    return $fcgi[0];
}

// Downloads between two looks at the connection: with keepalive, every request
// (and the answers after a download written by the engine) rides the same one.
// Without a Content-Length (cl=0) nginx ends each response on the FastCGI
// END_REQUEST record, the record that lets it keep the connection. With one, it
// may end the response when the last body byte is in, before that record: if the
// worker was descheduled between the two (a loaded machine), nginx closes the
// connection and opens another for the next request, which tells nothing about
// the option or the records the engine wrote.
$first = [];
foreach ($servers as $mode => $srv) {
    $first[$mode] = fastcgi_connection($srv, "[$mode] before");
}
foreach (['readfile', 'fpassthru', 'scts'] as $fn) {
    fchttp_compare($servers, "$fn over a kept connection", "send.php?file=odd&fn=$fn&cl=0", [], ['status' => 200,
        'bytes' => $odd['size'], 'sha256' => $odd['sha256'], 'fast' => $odd['size']]);
}
foreach ($servers as $mode => $srv) {
    $after = fastcgi_connection($srv, "[$mode] after");
    if ($first[$mode] !== null && $after !== $first[$mode]) {
        fcint_fail("[$mode] nginx opened a new FastCGI connection: " . json_encode([$first[$mode], $after]));
    }
}
if ($GLOBALS['fcint_failures'] === 0) {
    echo "one FastCGI connection over TCP throughout: ok\n";
}
fcint_done();
?>
--EXPECTF--
override: %r(on|unavailable \(.*\))%r
readfile over a kept connection: ok
fpassthru over a kept connection: ok
scts over a kept connection: ok
one FastCGI connection over TCP throughout: ok
done
