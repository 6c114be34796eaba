--TEST--
A socket's peer on this host or not: a file to a TCP peer on a loopback address or on another address of this host is sent copies from the mmap window (sendfile hands over with SAME_HOST), to one on another host (a network namespace over a veth pair; also where ip_nonlocal_bind lets any address be bound) and to a unix socket by sendfile; fastcopy.same_host=zerocopy sends every peer the kernel's pages; the bytes always whole
--SKIPIF--
<?php
if (!extension_loaded('fastcopy')) die('skip fastcopy not loaded');
if (getenv('USE_ZEND_ALLOC') === '0' && !getenv('SKIP_ASAN')) die('skip children are not run under valgrind');
if (!function_exists('proc_open') || !function_exists('posix_geteuid')) die('skip proc_open and posix needed');
if (posix_geteuid() !== 0 || !is_executable('/usr/sbin/ip') && !is_executable('/sbin/ip')) die('skip root and ip(8) needed for a network namespace');
?>
--FILE--
<?php
require __DIR__ . '/../inc/streams.inc';

$ip = is_executable('/usr/sbin/ip') ? '/usr/sbin/ip' : '/sbin/ip';
// Two hosts on one machine: this one, and a network namespace behind a veth pair.
$ns = 'fcpeer' . getmypid();
$net = sprintf('10.%d.%d', 200 + getmypid() % 50, getmypid() % 250);
$here = "$net.1";
$there = "$net.2";
$sh = fn (string $cmd) => exec("$cmd 2>&1", $out, $rc) !== false && $rc === 0 ?: die("setup failed: $cmd: " . implode(' ', $out));
$sh("$ip netns add $ns");
register_shutdown_function(fn () => exec("$ip netns del $ns 2>/dev/null; $ip link del v$ns 2>/dev/null"));
$sh("$ip link add v$ns type veth peer name p$ns");
$sh("$ip link set p$ns netns $ns");
$sh("$ip addr add $here/30 dev v$ns");
$sh("$ip link set v$ns up");
$sh("$ip netns exec $ns $ip addr add $there/30 dev p$ns");
$sh("$ip netns exec $ns $ip link set p$ns up");
$sh("$ip netns exec $ns $ip link set lo up");

$data = fc_bytes(3 << 20, 7);
$src = fc_file_with($data);
// A receiver that counts what it reads: in this namespace, or in the other one.
$receive = function (string $listen, bool $inNs) use ($ip, $ns): array {
    $code = '$s = stream_socket_server(' . var_export($listen, true) . '); echo stream_socket_get_name($s, false), "\n";'
        . ' $c = stream_socket_accept($s, 30); $h = hash_init("sha256"); $n = 0;'
        . ' while (($d = fread($c, 1 << 20)) !== "" && $d !== false) { hash_update($h, $d); $n += strlen($d); }'
        . ' echo $n, " ", hash_final($h), "\n";';
    $cmd = [...($inNs ? [$ip, 'netns', 'exec', $ns] : []), PHP_BINARY, '-n', '-r', $code];
    $p = proc_open($cmd, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    return [$p, $pipes, trim(fgets($pipes[1]))];
};
// With ip_nonlocal_bind any address can be bound: a bind() would take every peer for this
// host's. The setting is put back as it was, whatever happens.
// (--CLEAN-- puts it back after a run that died, from the note left here.)
$nonlocal = '/proc/sys/net/ipv4/ip_nonlocal_bind';
$wasNonlocal = trim((string) file_get_contents($nonlocal));
$note = sys_get_temp_dir() . '/fcpeer-nonlocal-' . getmypid();
file_put_contents($note, $wasNonlocal);
register_shutdown_function(function () use ($nonlocal, $wasNonlocal, $note) {
    file_put_contents($nonlocal, $wasNonlocal);
    unlink($note);
});
$cases = [
    'loopback TCP' => ['tcp://127.0.0.1:0', false],
    "TCP to this host's other address" => ["tcp://$here:0", false],
    'TCP to another host' => ["tcp://$there:0", true],
    'TCP to another host, ip_nonlocal_bind=1' => ["tcp://$there:0", true, true],
    'a unix socket' => ['unix', false],
];
foreach (['copy', 'zerocopy'] as $setting) {
    ini_set('fastcopy.same_host', $setting);
    foreach ($cases as $label => [$listen, $inNs]) {
        file_put_contents($nonlocal, isset($cases[$label][2]) ? '1' : $wasNonlocal);
        if ($listen === 'unix') {
            $listen = 'unix://' . fc_tmp("peer-$setting") . '.sock';
        }
        [$p, $pipes, $name] = $receive($listen, $inNs);
        $to = stream_socket_client(str_starts_with($listen, 'unix') ? $listen : "tcp://$name", $errno, $errstr, 10);
        $before = fastcopy_stats();
        $n = fastcopy_stream(fopen($src, 'r'), $to);
        fclose($to);
        $got = trim(stream_get_contents($pipes[1]));
        proc_close($p);
        $d = fc_stats_delta($before, fastcopy_stats());
        $moved = array_keys(array_filter(fc_stats_paths($d), fn (array $s) => $s['bytes'] > 0));
        printf("%s, %s: %s%s, %s\n", $setting, $label, implode(',', $moved),
            isset($d['sendfile']['fallbacks']['SAME_HOST']) ? ' (sendfile: SAME_HOST)' : '',
            $n === strlen($data) && $got === strlen($data) . ' ' . hash('sha256', $data) ? 'whole' : "NOT WHOLE ($n, $got)");
    }
}
ini_set('fastcopy.same_host', 'sometimes');
var_dump(ini_get('fastcopy.same_host'));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
// a run that died before its shutdown function left its namespace and link behind
$ip = is_executable('/usr/sbin/ip') ? '/usr/sbin/ip' : '/sbin/ip';
foreach (glob('/run/netns/fcpeer*') ?: [] as $left) {
    $pid = (int) substr(basename($left), 6);
    if ($pid > 0 && !file_exists("/proc/$pid")) {
        exec("$ip netns del " . escapeshellarg(basename($left)) . " 2>/dev/null; $ip link del "
            . escapeshellarg('v' . basename($left)) . ' 2>/dev/null');
    }
}
foreach (glob(sys_get_temp_dir() . '/fcpeer-nonlocal-*') ?: [] as $note) {
    if (!file_exists('/proc/' . (int) substr(strrchr($note, '-'), 1))) {
        file_put_contents('/proc/sys/net/ipv4/ip_nonlocal_bind', trim((string) file_get_contents($note)));
        unlink($note);
    }
}
?>
--EXPECTF--
copy, loopback TCP: mmap (sendfile: SAME_HOST), whole
copy, TCP to this host's other address: mmap (sendfile: SAME_HOST), whole
copy, TCP to another host: sendfile, whole
copy, TCP to another host, ip_nonlocal_bind=1: sendfile, whole
copy, a unix socket: sendfile, whole
zerocopy, loopback TCP: sendfile, whole
zerocopy, TCP to this host's other address: sendfile, whole
zerocopy, TCP to another host: sendfile, whole
zerocopy, TCP to another host, ip_nonlocal_bind=1: sendfile, whole
zerocopy, a unix socket: sendfile, whole

Warning: ini_set(): fastcopy.same_host must be copy or zerocopy, "sometimes" given in %s on line %d
string(8) "zerocopy"
