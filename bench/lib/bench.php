<?php
// The benchmark runner proper (bench/run prepares the machine, then calls
// this). It runs every case in a fresh process per run, contenders
// interleaved per repetition, then writes the markdown, JSON and chart.
//
//   php -n bench/lib/bench.php --mode=quick|full|smoke --work=DIR --shm=DIR
//       --bin=DIR --out=DIR --prefix=NAME [--ext=SO] [--http] [--only=a,b]
declare(strict_types=1);

require __DIR__ . '/util.php';
require __DIR__ . '/report.php';
require __DIR__ . '/chart.php';
require __DIR__ . '/http.php';
require __DIR__ . '/http_handover.php';
require __DIR__ . '/http_apache.php';
require __DIR__ . '/http_lighttpd.php';
require __DIR__ . '/http_occupancy.php';
require __DIR__ . '/put.php';
require __DIR__ . '/http_upload.php';
require __DIR__ . '/http_server_upload.php';


// Who competes. 'base' is the stock contender a row's "vs stock" is taken
// against (default: stock stream_copy_to_stream).
const CONTENDERS = [
    'stock' => ['label' => 'stream_copy_to_stream (stock)', 'short' => 'stock s_c_t_s', 'script' => 'stock_copy.php'],
    'fpassthru' => ['label' => 'fpassthru (stock)', 'short' => 'fpassthru', 'script' => 'fpassthru.php'],
    'readfile' => ['label' => 'readfile (stock)', 'short' => 'readfile', 'script' => 'readfile.php'],
    'copy' => ['label' => 'copy() (stock)', 'short' => 'copy()', 'script' => 'copy.php'],
    'fastcopy' => ['label' => 'fastcopy_stream', 'short' => 'fastcopy_stream', 'script' => 'fastcopy.php', 'ext' => true],
    'readfile_ov' => ['label' => 'readfile, fastcopy.override=1', 'short' => 'readfile+override', 'script' => 'readfile.php', 'ext' => true, 'override' => true, 'base' => 'readfile'],
    'copy_ov' => ['label' => 'copy(), fastcopy.override=1', 'short' => 'copy()+override', 'script' => 'copy.php', 'ext' => true, 'override' => true, 'base' => 'copy'],
    // The routes to a same-host peer (issue 35): the default sends a TCP peer on this host the kernel's
    // pages (sendfile), and fastcopy.same_host=copy sends it copies from the mmap window (sendfile falls
    // back with SAME_HOST); fastcopy.disable=sendfile,splice forces those copies where no setting asks for
    // them (a unix socket, a pipe), to show what they would cost there.
    'fastcopy_copy' => ['label' => 'fastcopy_stream, fastcopy.same_host=copy', 'short' => 'fastcopy_stream same_host=copy', 'script' => 'fastcopy.php',
        'ext' => true, 'ini' => ['fastcopy.same_host' => 'copy'], 'needs' => 'same_host'],
    'fastcopy_cp' => ['label' => 'fastcopy_stream, copies forced: fastcopy.disable=sendfile,splice', 'short' => 'fastcopy_stream copies',
        'script' => 'fastcopy.php', 'ext' => true, 'ini' => ['fastcopy.disable' => 'sendfile,splice']],
    'c_sendfile' => ['label' => 'C sendfile loop', 'short' => 'C sendfile', 'c' => 'sendfile'],
    'c_mmapwrite' => ['label' => 'C write() from a mapping (4 MiB windows, 1 MiB writes)', 'short' => 'C mmap+write', 'c' => 'mmapwrite'],
    'c_cfr' => ['label' => 'C copy_file_range loop', 'short' => 'C copy_file_range', 'c' => 'copy_file_range'],
    'c_splice' => ['label' => 'C splice loop', 'short' => 'C splice', 'c' => 'splice'],
    'c_read' => ['label' => 'C read() into memory', 'short' => 'C read()', 'c' => 'read'],
    'cp' => ['label' => 'cp', 'short' => 'cp', 'cp' => true],
];

function cases(string $mode): array
{
    $sizes = match ($mode) {
        'full' => [4 * KIB, MIB, 64 * MIB, GIB],
        'smoke' => [64 * KIB],
        default => [GIB],
    };
    $big = max($sizes);
    $full = $mode !== 'quick';
    // copy() and its override, and cp on one filesystem, add little to the
    // quick run's picture: full and smoke only, to keep quick quick.
    $file = $full ? ['stock', 'copy', 'fastcopy', 'copy_ov'] : ['stock', 'fastcopy'];
    // To loopback TCP both routes: fastcopy_stream's default (sendfile) and the copies of
    // fastcopy.same_host=copy (issue 35).
    $net = ['stock', 'fastcopy', 'fastcopy_copy', 'c_sendfile'];
    // 'ends': the receiver read()s into a buffer like a real consumer, and its CPU is measured
    // beside the sender's, every run: on this host the two ends' sum is the cost (issue 35).
    // Every route a same-host socket or pipe can take, the cheapest-route floor in C among them.
    $tcpRoutes = ['stock', 'fastcopy', 'fastcopy_copy', 'c_sendfile', 'c_mmapwrite'];
    $cases = [
        'same_fs' => ['label' => 'file → file, same filesystem (disk)', 'dst' => 'file', 'on' => 'work',
            'contenders' => [...$file, 'c_cfr', ...($full ? ['cp'] : [])], 'ref' => 'c_cfr', 'sizes' => $sizes],
        'cross_fs' => ['label' => 'file → file, disk → tmpfs', 'dst' => 'file', 'on' => 'shm',
            'contenders' => [...$file, ...($full ? ['c_sendfile'] : []), 'cp'], 'ref' => 'cp', 'sizes' => $sizes],
        'tcp' => ['label' => 'file → TCP socket (loopback), the receiver reading', 'dst' => 'tcp', 'ends' => true,
            'contenders' => $tcpRoutes, 'ref' => 'c_sendfile', 'sizes' => $sizes],
        // Nextcloud's shape: the source behind icewind/streams' CallbackWrapper
        // with only a close callback (case.php wraps it); the C loop is unwrapped.
        // Its receiver reads as the tcp case's does: its target compares the two.
        'tcp_wrapped' => ['label' => 'file behind a CallbackWrapper → TCP socket, the receiver reading', 'dst' => 'tcp', 'wrap' => 'nextcloud',
            'ends' => true, 'contenders' => $net, 'ref' => 'c_sendfile', 'sizes' => $sizes],
        // A unix socket keeps zero-copy: the copies forced beside it show what they would cost.
        'unix' => ['label' => 'file → unix socket, the receiver reading', 'dst' => 'unix', 'ends' => true,
            'contenders' => ['stock', 'fastcopy', 'fastcopy_cp', 'c_sendfile', 'c_mmapwrite'], 'ref' => 'c_sendfile', 'sizes' => $sizes],
        'pipe' => ['label' => 'file → pipe (php://stdout), the receiver reading', 'dst' => 'stdout', 'ends' => true,
            'contenders' => ['stock', 'fastcopy', 'fastcopy_cp', 'c_splice', 'c_mmapwrite'], 'ref' => 'c_splice', 'sizes' => $sizes],
        'output' => ['label' => 'file → php://output (CLI, stdout a pipe)', 'dst' => 'output',
            'contenders' => ['stock', 'fpassthru', 'readfile', 'fastcopy', 'readfile_ov', 'c_splice'],
            'ref' => 'c_splice', 'sizes' => $sizes],
        'memory' => ['label' => 'file → php://memory', 'dst' => 'memory',
            'contenders' => ['stock', 'fastcopy', 'c_read'], 'ref' => 'c_read', 'sizes' => $sizes],
        'range' => ['label' => 'range (offset+length) from mid-file → TCP, the receiver reading', 'dst' => 'tcp', 'range' => true, 'ends' => true,
            'contenders' => $net, 'ref' => 'c_sendfile', 'sizes' => [$big]],
        // On tmpfs: this disk is mounted with discard, and creating or
        // deleting a file on it costs ~0.5 ms, which would drown the
        // per-copy overhead this case is about.
        'small' => ['label' => 'many 4 KiB files → files (tmpfs)', 'dst' => 'dir', 'on' => 'shm',
            'contenders' => [...$file, 'c_cfr', ...($full ? ['cp'] : [])], 'ref' => 'c_cfr',
            'sizes' => [4 * KIB], 'count' => match ($mode) { 'full' => 20000, 'smoke' => 50, default => 5000 }],
    ];
    if ($mode === 'full' || $mode === 'smoke') {
        // php.ini-production's output_buffering, 4 GiB through php://output: peak RSS.
        $cases['rss_output'] = ['label' => 'peak RSS, file → php://output, output_buffering=4096', 'dst' => 'output',
            'ini' => ['output_buffering' => '4096'], 'contenders' => ['stock', 'readfile', 'fastcopy', 'readfile_ov'],
            'ref' => null, 'sizes' => [$mode === 'full' ? 4 * GIB : MIB], 'runs' => $mode === 'full' ? 3 : 1,
            'strace' => false]; // 1M syscalls under strace for stock: minutes, for a case about memory
    }
    return $cases;
}

/** Whether a contender can run here, or why not. */
function availability(string $id, array $cfg): ?string
{
    $c = CONTENDERS[$id];
    if (!empty($c['ext']) && $cfg['ext'] === '') {
        return 'n/a (extension not built)';
    }
    if (!empty($c['override']) && !$cfg['override']) {
        return 'n/a (override not built)';
    }
    if (($c['needs'] ?? null) === 'same_host' && !$cfg['same_host']) {
        return 'n/a (fastcopy.same_host not built)';
    }
    return null;
}

function php_cmd(string $id, array $case, array $cfg): array
{
    $c = CONTENDERS[$id];
    $cmd = [PHP_BINARY, '-n', '-d', 'memory_limit=-1', '-d', 'display_errors=stderr'];
    foreach ($case['ini'] ?? [] as $k => $v) {
        array_push($cmd, '-d', "$k=$v");
    }
    if (!empty($c['ext'])) {
        array_push($cmd, '-d', 'extension=' . $cfg['ext']);
    }
    if (!empty($c['override'])) {
        array_push($cmd, '-d', 'fastcopy.override=1');
    }
    foreach ($c['ini'] ?? [] as $k => $v) {
        array_push($cmd, '-d', "$k=$v");
    }
    $cmd[] = dirname(__DIR__) . '/cases/' . $c['script'];
    return $cmd;
}

/**
 * One run of one contender in a fresh process. Returns its report (wall,
 * cpu, maxrss, bytes) or, with $trace, the syscall counts of an strace run.
 */
function run_one(string $id, string $caseId, array $case, int $size, array &$cfg, array $env, ?string $trace = null): array
{
    $c = CONTENDERS[$id];
    $w = $cfg['work'];
    $report = "$w/report.json";
    @unlink($report);
    $src = $case['dst'] === 'dir' ? $cfg['shm'] . '/small_src' : $env['src'];
    $offset = $env['offset'] ?? 0;
    $length = $env['length'] ?? null;
    $expect = $case['dst'] === 'dir' ? $case['count'] * $size : ($length ?? $size);

    $dstPath = null;
    switch ($case['dst']) {
        case 'file':
            $dstPath = ($case['on'] === 'shm' ? $cfg['shm'] : $w) . '/dst.bin';
            @unlink($dstPath);
            $dst = "file:$dstPath";
            break;
        case 'dir':
            $dstPath = $cfg['shm'] . '/small_dst';
            rm_rf($dstPath);
            mkdir($dstPath);
            $dst = "dir:$dstPath";
            break;
        case 'tcp':
            $dst = 'tcp:127.0.0.1:' . $env['port'];
            break;
        case 'unix':
            $dst = 'unix:' . $env['sock'];
            break;
        default:
            $dst = $case['dst'];
    }
    if (isset($env['countfile'])) {
        @unlink($env['countfile']);
    }

    $args = ["src=$src", "dst=$dst", "report=$report"];
    if ($offset) {
        $args[] = "offset=$offset";
    }
    if ($length !== null) {
        $args[] = "length=$length";
    }
    if ($case['dst'] === 'dir') {
        $args[] = 'count=' . $case['count'];
    }
    if (isset($case['wrap'])) {
        $args[] = 'wrap=' . $case['wrap'];
    }

    if (isset($c['script'])) {
        $cmd = [...php_cmd($id, $case, $cfg), ...$args];
    } elseif (isset($c['c'])) {
        // The C program writes to stdout for both pipe-like destinations.
        $cargs = array_map(fn ($a) => in_array($a, ['dst=output'], true) ? 'dst=stdout' : $a, $args);
        $cmd = [$cfg['bin'] . '/fcref', $c['c'], ...$cargs];
    } else {
        $cp = $case['dst'] === 'dir' ? ['cp', '-R', "$src/.", $dstPath] : ['cp', $src, $dstPath];
        $cmd = [$cfg['bin'] . '/runstat', $report, (string) $expect, ...$cp];
    }
    if ($trace !== null) {
        @unlink($trace);
        $cmd = ['strace', '-f', '-qq', '-o', $trace, ...$cmd];
    }
    // Every run is bounded in time, whatever happens inside it.
    $cmd = ['timeout', '-k', '5', (string) $cfg['run_timeout'], ...$cmd];

    $err = "$w/stderr.txt";
    $pipeDst = in_array($case['dst'], ['stdout', 'output'], true);
    $drain = null;
    $stdout = ['file', '/dev/null', 'w'];
    $ends = !empty($case['ends']) && $trace === null;
    if ($pipeDst) {
        $countfile = "$w/pipe.count";
        @unlink($countfile);
        // A case that measures both ends has its drain read, whatever FCBENCH_DRAIN says.
        $drain = proc_open([$cfg['bin'] . '/drain', 'stdin', $countfile, ...(empty($case['ends']) ? [] : ['read'])],
            [0 => ['pipe', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', "$w/drain.err", 'a']], $dp);
        $stdout = $dp[0];
    }
    if ($trace === null) {
        wait_quiet($cfg);
    }
    // The socket cases' drain is one process for all runs: its CPU around this one, once idle.
    $drainPid = $ends && !$pipeDst ? $env['drain_pid'] : null;
    if ($drainPid !== null) {
        settle([$drainPid]);
        $recv0 = proc_cpu($drainPid);
    }
    $p = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => $stdout, 2 => ['file', $err, 'w']], $pipes);
    if ($pipeDst) {
        fclose($dp[0]); // the drain sees EOF when the copier exits
    }
    $status = proc_close($p);
    if ($drain) {
        proc_close($drain);
    }
    $receiverCpu = null;
    if ($drainPid !== null) {
        // The drain has written its count and closed before the sender saw EOF and exited.
        settle([$drainPid]);
        $receiverCpu = proc_cpu($drainPid) - $recv0;
    } elseif ($ends && $pipeDst) {
        // A pipe's drain is a process of its own per run: it counts its CPU from its first read to EOF.
        $receiverCpu = (float) (explode(' ', trim((string) @file_get_contents("$w/pipe.count")))[1] ?? 0);
    }

    $r = is_file($report) ? json_decode((string) file_get_contents($report), true) : null;
    $problem = null;
    if (!is_array($r) || empty($r['ok'])) {
        $problem = 'failed: ' . trim(($r['error'] ?? '') . ' ' . tail($err));
    } elseif ((int) $r['bytes'] !== $expect) {
        $problem = "copied {$r['bytes']} bytes, expected $expect";
    } else {
        // Check what arrived, not just what the copier says it sent.
        $got = match (true) {
            $pipeDst => (int) @file_get_contents("$w/pipe.count"),
            isset($env['countfile']) => (int) @file_get_contents($env['countfile']),
            $case['dst'] === 'file' => (int) @filesize($dstPath),
            $case['dst'] === 'dir' => dir_bytes($dstPath),
            $case['dst'] === 'memory' => (int) ($r['memory_size'] ?? $r['bytes']),
        };
        if ($got !== $expect) {
            $problem = "receiver got $got bytes, expected $expect";
        } elseif ($cfg['verify'] && $case['dst'] === 'file' && sha1_range($src, $offset, $expect) !== sha1_file($dstPath)) {
            $problem = 'content differs from source';
        } elseif ($cfg['verify'] && $case['dst'] === 'dir' && !same_dirs($src, $dstPath, $case['count'])) {
            $problem = 'small files differ from source';
        }
    }
    if ($status !== 0 && $problem === null) {
        $problem = "exit status $status: " . tail($err);
    }
    if ($dstPath !== null) {
        // Unlinking right away drops the dirty pages before writeback starts,
        // so one run's writes don't slow down the next one.
        $case['dst'] === 'dir' ? rm_rf($dstPath) : @unlink($dstPath);
    }
    if ($problem !== null) {
        return ['ok' => false, 'error' => $problem];
    }
    if (!isset($r['cpu'])) {
        $r['cpu'] = ($r['utime'] ?? 0) + ($r['stime'] ?? 0);
    }
    if ($receiverCpu !== null) {
        $r['receiver_cpu'] = $receiverCpu;
    }
    if ($trace !== null) {
        $r['syscalls'] = count_syscalls($trace);
        @unlink($trace);
    }
    return $r;
}

/** Makes the source files of a case and pulls them into the page cache. */
function prepare_case(string $caseId, array $case, int $size, array $cfg): array
{
    $w = $cfg['work'];
    $env = [];
    if ($case['dst'] === 'dir') {
        make_small_files($cfg['shm'] . '/small_src', $case['count'], $size);
        warm_dir($cfg['shm'] . '/small_src', $case['count']);
    } else {
        $env['src'] = "$w/src-$size.bin";
        make_file($env['src'], $size);
        warm_file($env['src']);
        if (!empty($case['range'])) {
            // From the middle, deliberately not page aligned.
            $env['offset'] = intdiv($size, 4) + 4097;
            $env['length'] = intdiv($size, 2);
        }
    }
    return $env;
}

function main(array $argv): int
{
    $o = getopt('', ['mode:', 'work:', 'shm:', 'bin:', 'out:', 'prefix:', 'ext:', 'http', 'only:', 'repo:', 'commit:', 'runs:', 'upload-dir:', 'page-reporting:']);
    $mode = $o['mode'] ?? 'quick';
    $cfg = [
        'mode' => $mode,
        'work' => $o['work'],
        'shm' => $o['shm'],
        'bin' => $o['bin'],
        'out' => $o['out'],
        'prefix' => $o['prefix'] ?? 'latest',
        'ext' => $o['ext'] ?? '',
        'repo' => $o['repo'] ?? dirname(__DIR__, 2),
        'commit' => $o['commit'] ?? '',
        'page_reporting' => $o['page-reporting'] ?? 'not asked',
        'upload_dir' => $o['upload-dir'] ?? null,
        'runs' => (int) ($o['runs'] ?? ($mode === 'smoke' ? 1 : 5)),
        'warmup' => $mode !== 'smoke',
        'verify' => $mode === 'smoke',
        'run_timeout' => $mode === 'smoke' ? 60 : 600,
        // strace multiplies a stock 1 GiB copy's time by ~10: quick mode
        // traces only what a target needs (TCP, stock and fastcopy).
        'strace_cases' => $mode === 'quick' ? ['tcp'] : null,
        'strace_contenders' => $mode === 'quick' ? ['stock', 'fastcopy'] : null,
        'drain' => 'read() into a 1 MiB buffer where a case measures both ends (its CPU beside the sender\'s); elsewhere (php://output, the C fastcgi floors) '
            . (getenv('FCBENCH_DRAIN') === 'read' ? 'read() into a buffer too (FCBENCH_DRAIN=read)' : 'recv(MSG_TRUNC) for TCP, splice() to /dev/null otherwise'),
        'load_start' => sys_getloadavg(),
        // FCBENCH_STRACE=0 skips the strace passes (a second run on another filesystem, say).
        'has_strace' => is_executable('/usr/bin/strace') && getenv('FCBENCH_STRACE') !== '0',
        // Seconds the run may spend waiting for a busy machine to calm down.
        'quiet_budget' => match ($mode) { 'full' => 300, 'smoke' => 0, default => 25 },
        'quiet_waited' => 0.0,
        'quiet_busy_runs' => 0,
    ];
    $cfg['override'] = $cfg['ext'] !== '' && ext_has_override($cfg['ext']);
    // fastcopy.same_host (issue 35): the copy route to a same-host peer as a contender of its own.
    $cfg['same_host'] = $cfg['ext'] !== '' && ext_has_ini($cfg['ext'], 'fastcopy.same_host');
    $only = isset($o['only']) ? explode(',', $o['only']) : null;
    if ($only !== null && in_array('same_host', $only, true)) {
        // Issue 35's routes to a peer on this host: the copy cases measured at both ends and, with
        // --http, the downloads behind nginx and lighttpd (their TCP pools' splice and copy routes).
        $only = [...$only, 'tcp', 'unix', 'pipe', 'downloads', 'lighttpd'];
    }

    fs_check($cfg);
    $t0 = microtime(true);
    $results = [];
    $cases = cases($mode);
    foreach ($cases as $caseId => $case) {
        if ($only !== null && !in_array($caseId, $only, true)) {
            continue;
        }
        $runs = $case['runs'] ?? $cfg['runs'];
        $servers = start_receivers($case, $cfg);
        try {
            foreach ($case['sizes'] as $size) {
                $env = prepare_case($caseId, $case, $size, $cfg) + $servers;
                $tc = microtime(true);
                say(sprintf('%-10s %-12s', $caseId, $case['dst'] === 'dir' ? $case['count'] . '×' . human_size($size) : human_size($size)));
                $rows = [];
                $live = [];
                foreach ($case['contenders'] as $id) {
                    $na = availability($id, $cfg);
                    $rows[$id] = ['contender' => $id, 'label' => CONTENDERS[$id]['label'], 'runs' => [], 'na' => $na];
                    if ($na === null) {
                        $live[] = $id;
                    }
                }
                // Interleaved: each repetition runs every contender once, in
                // a rotated order, so drift and neighbours hit all alike.
                for ($rep = $cfg['warmup'] ? -1 : 0; $rep < $runs; $rep++) {
                    foreach (rotated($live, $rep) as $id) {
                        if (isset($rows[$id]['error'])) {
                            continue;
                        }
                        $r = run_one($id, $caseId, $case, $size, $cfg, $env);
                        if (!$r['ok']) {
                            $rows[$id]['error'] = $r['error'];
                            say("  $id: {$r['error']}");
                        } elseif ($rep >= 0) {
                            $rows[$id]['runs'][] = $r;
                        }
                    }
                    echo '.';
                }
                if ($cfg['has_strace'] && ($case['strace'] ?? true) && ($cfg['strace_cases'] === null || in_array($caseId, $cfg['strace_cases'], true))) {
                    // Separate, untimed pass: strace slows everything down.
                    foreach ($live as $id) {
                        if (isset($rows[$id]['error']) || ($cfg['strace_contenders'] !== null && !in_array($id, $cfg['strace_contenders'], true))) {
                            continue;
                        }
                        $r = run_one($id, $caseId, $case, $size, $cfg, $env, $cfg['work'] . '/trace.txt');
                        if ($r['ok']) {
                            $rows[$id]['syscalls'] = $r['syscalls'];
                        }
                    }
                }
                say(sprintf(' %.1f s', microtime(true) - $tc));
                foreach ($rows as $id => $row) {
                    $results[] = summarize($caseId, $case, $size, $row);
                }
            }
        } finally {
            stop_receivers($servers);
        }
    }

    $http = null;
    // --only=downloads / apache / lighttpd / occupancy / upload / server_upload: that part of the
    // HTTP case alone (--only=http: all of it).
    $want = static fn (string $part): bool => $only === null || in_array('http', $only, true) || in_array($part, $only, true);
    $parts = ['downloads', 'apache', 'lighttpd', 'occupancy', 'upload', 'server_upload'];
    if (isset($o['http']) && array_filter($parts, $want) !== []) {
        $http = $want('downloads') ? http_case($cfg) : ['size' => 0, 'rows' => [], 'error' => 'not asked (--only)', 'not_asked' => true];
        // The same downloads under Apache + mod_php (the apache path), in $http['apache'].
        $http['apache'] = $want('apache') ? http_apache_case($cfg) : ['size' => 0, 'rows' => [], 'error' => 'not asked (--only)', 'not_asked' => true];
        // The same downloads behind lighttpd, handed over with X-Sendfile2, in $http['lighttpd'].
        $http['lighttpd'] = $want('lighttpd') ? http_lighttpd_case($cfg)
            : ['size' => 0, 'rows' => [], 'error' => 'not asked (--only)', 'not_asked' => true];
        // How long a small page waits while slow downloads hold the workers, in $http['occupancy'].
        $http['occupancy'] = $want('occupancy') ? http_occupancy_case($cfg)
            : ['size' => 0, 'rows' => [], 'error' => 'not asked (--only)', 'not_asked' => true];
        // Uploads through nginx into PHP-FPM, in $http['upload'].
        $http['upload'] = $want('upload') ? http_upload_case($cfg) : ['size' => 0, 'rows' => [], 'error' => 'not asked (--only)', 'not_asked' => true];
        // The whole server's cost of a PUT (nginx + the worker) against nginx's own PUT, in $http['server_upload'].
        $http['server_upload'] = $want('server_upload') ? http_server_upload_case($cfg)
            : ['size' => 0, 'rows' => [], 'error' => 'not asked (--only)', 'not_asked' => true];
        foreach ([...$http['rows'] ?? [], ...$http['apache']['rows'], ...$http['lighttpd']['rows'], ...$http['upload']['rows']] as $row) {
            $results[] = $row;
        }
    }

    add_ratios($results, $cases);
    $meta = meta($cfg, microtime(true) - $t0);
    $targets = targets($results, $cfg, $http);
    write_outputs($cfg, $meta, $results, $targets, $http);
    // Smoke mode checks that every contender ran and delivered the bytes: a
    // failed row fails the run (nothing is timed).
    if ($cfg['verify']) {
        $failed = array_filter([...$results, ...$http['server_upload']['rows'] ?? [], ...$http['occupancy']['rows'] ?? []],
            static fn (array $r) => str_starts_with($r['status'], 'error'));
        foreach ($failed as $r) {
            fwrite(STDERR, "bench: {$r['case']} {$r['contender']}: {$r['status']}\n");
        }
        $partFailed = false;
        foreach (['' => $http, 'Apache' => $http['apache'] ?? null, 'lighttpd' => $http['lighttpd'] ?? null,
            'occupancy' => $http['occupancy'] ?? null, 'upload' => $http['upload'] ?? null,
            'server upload' => $http['server_upload'] ?? null] as $part => $p) {
            if (!empty($p['error']) && empty($p['not_asked'])) {
                fwrite(STDERR, 'bench: http' . ($part ? " ($part)" : '') . ": {$p['error']}\n");
                $partFailed = true;
            }
        }
        return $failed || $partFailed ? 1 : 0;
    }
    return 0;
}

exit(main($argv));
