<?php
// Timed PUTs through nginx into PHP-FPM, shared by the upload cases (http_upload.php,
// http_server_upload.php): the servers started, one PUT measured on the processes
// that serve it, the rounds of shuffled contenders, the stored file checked.
// Uses start_server(), proc_cpu(), settle(), strace_attach() from http.php.
declare(strict_types=1);

/** The machine's direct compactions and reclaims so far (/proc/vmstat): work a writer does in its own time. */
function vm_stalls(): int
{
    $n = 0;
    foreach (file('/proc/vmstat') ?: [] as $l) {
        if (preg_match('/^(compact_stall|allocstall_\w+) (\d+)/', $l, $m)) {
            $n += (int) $m[2];
        }
    }
    return $n;
}

/** One PUT through curl: [HTTP code, bytes sent, seconds]. */
function http_put(string $url, string $body): array
{
    $res = trim((string) shell_exec(sprintf('curl -s -o /dev/null --max-time 600 -H Expect: -T %s -w %s %s 2>&1', escapeshellarg($body),
        escapeshellarg('%{http_code} %{size_upload} %{time_total}'), escapeshellarg($url))));
    [$code, $bytes, $time] = explode(' ', $res . '  ');
    return [$code, (int) $bytes, (float) $time];
}

/** The command that hashes a file or its stdin: openssl's (SHA-NI where the CPU has it, ~3× sha256sum), else sha256sum. */
function sha256_tool(): string
{
    static $openssl = null;
    $openssl ??= trim((string) shell_exec('command -v openssl')) !== '';
    return $openssl ? 'openssl dgst -sha256 -r' : 'sha256sum';
}

/** The file's sha256. */
function sha256_file(string $path): ?string
{
    $h = trim((string) shell_exec(sha256_tool() . ' ' . escapeshellarg($path) . ' 2>/dev/null'));
    return preg_match('/^([0-9a-f]{64}) /', $h, $m) ? $m[1] : null;
}

/**
 * An upload case's result to fill: its size (1 GiB, 8 MiB when smoking), and an error
 * where nginx or PHP-FPM is missing, or the first of $unmet (why => whether it is so).
 */
function put_case(array $cfg, array $unmet): array
{
    $out = ['size' => $cfg['mode'] === 'smoke' ? 8 * MIB : GIB, 'rows' => []];
    foreach (['/usr/sbin/nginx', '/usr/sbin/php-fpm8.2'] as $bin) {
        $unmet = [...$unmet, "$bin not installed (bench/run --http installs it)" => !is_executable($bin)];
    }
    foreach ($unmet as $why => $so) {
        if ($so) {
            return $out + ['error' => $why];
        }
    }
    return $out;
}

/** The body the upload cases PUT, $size bytes in the page cache: [its path, its sha256]. */
function put_body(array $cfg, int $size): array
{
    $body = $cfg['work'] . "/upload-body-$size.bin";
    make_file($body, $size);
    warm_file($body);
    return [$body, sha256_file($body)];
}

/** $dir's filesystem as findmnt names it (it tells ext4 from ext2/3, which statfs's magic does not). */
function put_fs(string $dir): string
{
    return trim((string) shell_exec('findmnt -no FSTYPE -T ' . escapeshellarg($dir) . ' 2>/dev/null')) ?: fs_type($dir);
}

/** Whether $path holds $size bytes whose sha256 is $sha. */
function stored_whole(string $path, int $size, string $sha): bool
{
    clearstatcache();
    return is_file($path) && filesize($path) === $size && sha256_file($path) === $sha;
}

/**
 * Starts the pools (name => [addr, ini lines, or cmd: a server of its own, such as a C
 * floor]), one worker each, with $fpmIni for every PHP-FPM, then nginx on
 * $d/nginx.conf; the processes go to $servers. Returns [worker per pool, nginx's worker].
 */
function put_servers(array &$cfg, string $d, array $pools, array $fpmIni, array &$servers): array
{
    $workers = [];
    foreach ($pools as $name => $pool) {
        $log = "$d/$name.out";
        if (isset($pool['cmd'])) {
            [$servers[], $workers[$name]] = start_server($pool['cmd'], $log, $cfg);
            continue;
        }
        file_put_contents("$d/fpm-$name.conf", fpm_conf($d, "up-$name", $pool['addr']));
        $args = $fpmIni;
        foreach ($pool['ini'] as $line) {
            array_push($args, '-d', $line);
        }
        [$servers[], $master] = start_server(['/usr/sbin/php-fpm8.2', '-n', '-R', '-F', '-y', "$d/fpm-$name.conf", ...$args], $log, $cfg);
        $workers[$name] = wait_worker($master, $log);
    }
    [$servers[], $master] = start_server(['/usr/sbin/nginx', '-p', "$d/", '-c', "$d/nginx.conf", '-e', "$d/nginx-error.log"],
        "$d/nginx.out", $cfg);
    wait_path("$d/nginx.pid", "$d/nginx-error.log");
    $nginx = wait_worker($master, "$d/nginx-error.log");
    foreach ($pools as $pool) {
        if (str_starts_with($pool['addr'], '/')) {
            wait_path($pool['addr'], "$d/nginx-error.log");
        }
    }
    return [$workers, $nginx];
}

/**
 * One PUT of $body to $url, measured on $pids (role => pid): [code, wall, bytes,
 * vm_stalls, cpu => [role => seconds]], and with $strace (role => file) each one's
 * syscalls. Each PUT starts after sync, with nothing being written back: the writeback
 * of the PUT before (a clone flushes the file's range; on a loop mount that dirties the
 * image's pages too) is not this one's.
 */
function timed_put(array &$cfg, array $pids, string $url, string $body, array $strace = []): array
{
    exec('sync');
    wait_quiet($cfg);
    settle(array_values($pids));
    $traces = [];
    foreach ($strace as $role => $file) {
        $traces[$role] = strace_attach($pids[$role], $file);
    }
    $v0 = vm_stalls();
    $cpu = array_map('proc_cpu', $pids);
    [$code, $bytes, $time] = http_put($url, $body);
    settle(array_values($pids));
    foreach ($pids as $role => $pid) {
        $cpu[$role] = proc_cpu($pid) - $cpu[$role];
    }
    $run = ['code' => $code, 'wall' => $time, 'bytes' => $bytes, 'vm_stalls' => vm_stalls() - $v0, 'cpu' => $cpu];
    foreach ($traces as $role => $t) {
        $run['syscalls'][$role] = strace_detach($t);
    }
    return $run;
}

/**
 * The timed rounds: a warm-up (unless the mode has none), then $cfg['runs'] rounds of
 * the $live contenders, shuffled per round. $put($id) gives a run or why it failed;
 * a failed contender is not asked again. Fills $rows[$id]: runs, checked, error.
 */
function put_rounds(array &$cfg, array $live, callable $put, array &$rows): void
{
    for ($rep = $cfg['warmup'] ? -1 : 0; $rep < $cfg['runs']; $rep++) {
        foreach (shuffled($live, $rep) as $id) {
            if (isset($rows[$id]['error'])) {
                continue;
            }
            $run = $put($id);
            if (is_string($run)) {
                $rows[$id]['error'] = $run;
                say("  $id: $run");
                continue;
            }
            $rows[$id]['checked']++;
            if ($rep >= 0) {
                $rows[$id]['runs'][] = $run;
            }
        }
        echo '.';
    }
}
