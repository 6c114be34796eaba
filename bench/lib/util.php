<?php
// Helpers of the runner: test data, page cache, receivers, strace counts,
// statistics. Nothing here is timed.
declare(strict_types=1);

const GIB = 1 << 30;
const MIB = 1 << 20;
const KIB = 1 << 10;

function say(string $s): void
{
    fwrite(STDOUT, $s);
    if (!str_ends_with($s, ' ')) {
        fwrite(STDOUT, "\n");
    }
}

function tail(string $file, int $bytes = 400): string
{
    $s = (string) @file_get_contents($file);
    return trim(substr($s, -$bytes));
}

function human_size(int|float $n): string
{
    foreach (['GiB' => GIB, 'MiB' => MIB, 'KiB' => KIB] as $u => $v) {
        if ($n >= $v) {
            $x = $n / $v;
            return (floor($x) == $x ? (string) (int) $x : number_format($x, 1, '.', '')) . " $u";
        }
    }
    return "$n B";
}

function rm_rf(string $dir): void
{
    if (!is_dir($dir)) {
        return;
    }
    foreach (scandir($dir) as $f) {
        if ($f !== '.' && $f !== '..') {
            is_dir("$dir/$f") ? rm_rf("$dir/$f") : unlink("$dir/$f");
        }
    }
    rmdir($dir);
}

function dir_bytes(string $dir): int
{
    $n = 0;
    foreach (scandir($dir) as $f) {
        if ($f !== '.' && $f !== '..') {
            $n += filesize("$dir/$f");
        }
    }
    return $n;
}

function sha1_range(string $file, int $offset, int $length): string
{
    $h = hash_init('sha1');
    $f = fopen($file, 'rb');
    fseek($f, $offset);
    while ($length > 0 && ($s = fread($f, min($length, MIB))) !== '' && $s !== false) {
        hash_update($h, $s);
        $length -= strlen($s);
    }
    fclose($f);
    return hash_final($h);
}

function same_dirs(string $a, string $b, int $count): bool
{
    for ($i = 0; $i < $count; $i++) {
        $f = sprintf('f%06d', $i);
        if (@file_get_contents("$a/$f") !== @file_get_contents("$b/$f")) {
            return false;
        }
    }
    return true;
}

/**
 * Incompressible data, made once per size: a 64 MiB random block repeated
 * (nothing on this path deduplicates, and it is fast to write).
 */
function make_file(string $path, int $size): void
{
    if (is_file($path) && filesize($path) === $size) {
        return;
    }
    $block = random_bytes(min($size, 64 * MIB));
    $f = fopen($path, 'wb');
    for ($left = $size; $left > 0; $left -= strlen($block)) {
        fwrite($f, $left >= strlen($block) ? $block : substr($block, 0, $left));
    }
    fclose($f);
}

function make_small_files(string $dir, int $count, int $size): void
{
    if (is_dir($dir) && count(scandir($dir)) === $count + 2) {
        return;
    }
    rm_rf($dir);
    mkdir($dir);
    for ($i = 0; $i < $count; $i++) {
        file_put_contents(sprintf('%s/f%06d', $dir, $i), random_bytes($size));
    }
}

// Read everything once so every contender starts from the page cache.
function warm_file(string $path): void
{
    $f = fopen($path, 'rb');
    while (!feof($f) && fread($f, 4 * MIB) !== '') {
    }
    fclose($f);
}

function warm_dir(string $dir, int $count): void
{
    for ($i = 0; $i < $count; $i++) {
        file_get_contents(sprintf('%s/f%06d', $dir, $i));
    }
}

function ext_has_override(string $so): bool
{
    return ext_has_ini($so, 'fastcopy.override');
}

/** Whether the extension at $so has the ini setting $name (an older build may not). */
function ext_has_ini(string $so, string $name): bool
{
    $out = shell_exec(escapeshellarg(PHP_BINARY) . ' -n -d extension=' . escapeshellarg($so)
        . ' -r ' . escapeshellarg('echo ini_get(' . var_export($name, true) . ') === false ? "no" : "yes";') . ' 2>/dev/null');
    return trim((string) $out) === 'yes';
}

function fs_type(string $dir): string
{
    return trim((string) shell_exec('stat -f -c %T ' . escapeshellarg($dir)));
}

// The cross-filesystem case is only worth its name if the two directories
// really are on different filesystems.
function fs_check(array &$cfg): void
{
    $cfg['fs_work'] = fs_type($cfg['work']);
    $cfg['fs_shm'] = fs_type($cfg['shm']);
    $cfg['cross_fs_ok'] = stat($cfg['work'])['dev'] !== stat($cfg['shm'])['dev'] && $cfg['fs_work'] !== $cfg['fs_shm'];
    if (!$cfg['cross_fs_ok']) {
        say("warning: {$cfg['work']} and {$cfg['shm']} are on the same filesystem; cross_fs is not cross-fs here");
    }
}

/** Starts the drain a socket case sends to; returns where to find it. */
function start_receivers(array $case, array $cfg): array
{
    if (!in_array($case['dst'], ['tcp', 'unix'], true)) {
        return [];
    }
    $w = $cfg['work'];
    $where = $case['dst'] === 'tcp' ? "$w/drain.port" : "$w/drain.sock";
    @unlink($where);
    // A case that measures both ends ('ends') has the drain read like a real consumer.
    $p = proc_open([$cfg['bin'] . '/drain', $case['dst'], $where, ...(empty($case['ends']) ? [] : ['read'])],
        [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', "$w/drain.err", 'a']], $pipes);
    $pid = proc_get_status($p)['pid'];
    file_put_contents("$w/pids", "$pid\n", FILE_APPEND);
    for ($i = 0; $i < 500 && !file_exists($where); $i++) {
        usleep(10000);
    }
    if (!file_exists($where)) {
        throw new RuntimeException('drain did not start: ' . tail("$w/drain.err"));
    }
    // drain_pid: the process whose CPU is the receiver's (proc_open runs it without a shell).
    $env = ['drain' => $p, 'countfile' => "$where.count", 'drain_pid' => $pid];
    if ($case['dst'] === 'tcp') {
        $env['port'] = (int) trim((string) file_get_contents($where));
    } else {
        $env['sock'] = $where;
    }
    return $env;
}

function stop_receivers(array $env): void
{
    if (isset($env['drain'])) {
        proc_terminate($env['drain']);
        proc_close($env['drain']);
    }
}

/**
 * Counts the syscalls of an `strace -f` log: all of them, and those between
 * the case script's begin/end markers (the copy itself). cp has no markers:
 * its copy phase is the whole process.
 */
function count_syscalls(string $trace): array
{
    $total = 0;
    $phase = 0;
    $in = false;
    $seen = false;
    $names = [];
    $f = fopen($trace, 'rb');
    while (($line = fgets($f)) !== false) {
        if (str_contains($line, 'fcbench-mark-begin')) {
            $in = $seen = true;
            continue;
        }
        if (str_contains($line, 'fcbench-mark-end')) {
            $in = false;
            continue;
        }
        // "<... x resumed>" continues a call already counted as unfinished.
        if (!preg_match('/^\d+\s+([a-z_0-9]+)\(/', $line, $m)) {
            continue;
        }
        $total++;
        if ($in && $m[1] !== 'getrusage') { // getrusage is the harness's own clock
            $phase++;
            $names[$m[1]] = ($names[$m[1]] ?? 0) + 1;
        }
    }
    fclose($f);
    arsort($names);
    return ['copy' => $seen ? $phase : $total, 'total' => $total, 'whole_process' => !$seen, 'by_name' => array_slice($names, 0, 6, true)];
}

function median(array $xs): ?float
{
    if (!$xs) {
        return null;
    }
    sort($xs);
    $n = count($xs);
    return $n % 2 ? (float) $xs[intdiv($n, 2)] : ($xs[$n / 2 - 1] + $xs[$n / 2]) / 2;
}

/** The fields every result row shares: status, run count and the wall-clock figures. */
function row_timing(array $row, array $walls, ?int $bytes): array
{
    $wall = median($walls);
    return [
        'status' => $row['na'] ?? (isset($row['error']) ? 'error: ' . $row['error'] : 'ok'),
        'n' => count($walls),
        'bytes' => $bytes,
        'wall_median' => $wall,
        'wall_min' => $walls ? min($walls) : null,
        'wall_max' => $walls ? max($walls) : null,
        'gib_s' => $wall ? $bytes / $wall / GIB : null,
    ];
}

/** A row's CPU in seconds per GiB ($perGib): the median of the runs, and their spread. */
function row_cpu(array $cpu, callable $perGib): array
{
    return [
        'cpu_median' => median($cpu),
        'cpu_per_gib' => $perGib(median($cpu)),
        'cpu_min_per_gib' => $cpu ? $perGib(min($cpu)) : null,
        'cpu_max_per_gib' => $cpu ? $perGib(max($cpu)) : null,
    ];
}

/** One table row from the runs of one contender. */
function summarize(string $caseId, array $case, int $size, array $row): array
{
    $runs = $row['runs'];
    $walls = array_column($runs, 'wall');
    $bytes = $runs ? (int) $runs[0]['bytes'] : null;
    $out = [
        'case' => $caseId,
        'case_label' => $case['label'],
        'size' => $size,
        'count' => $case['count'] ?? null,
        'contender' => $row['contender'],
        'label' => $row['label'],
        'short' => CONTENDERS[$row['contender']]['short'],
        ...row_timing($row, $walls, $bytes),
        'cpu_median' => median(array_column($runs, 'cpu')),
        ...(empty($case['ends']) ? [] : both_ends($runs)),
        'maxrss_kb' => $runs ? max(array_column($runs, 'maxrss_kb')) : null,
        'syscalls' => $row['syscalls'] ?? null,
        'engine' => $runs ? ($runs[count($runs) - 1]['engine'] ?? null) : null,
        'walls' => $walls,
    ];
    return $out;
}

/**
 * A case that measures both ends: the receiver's CPU (the drain's) and the sum of the two,
 * medians of the runs; the sum's is the median of each run's sum, with its min–max.
 */
function both_ends(array $runs): array
{
    $recv = array_column($runs, 'receiver_cpu');
    $both = array_map(fn (array $r): float => $r['cpu'] + ($r['receiver_cpu'] ?? 0.0), $runs);
    return [
        'receiver_cpu_median' => count($recv) === count($runs) ? median($recv) : null,
        'both_cpu_median' => count($recv) === count($runs) ? median($both) : null,
        'both_cpu_min' => count($recv) === count($runs) && $both ? min($both) : null,
        'both_cpu_max' => count($recv) === count($runs) && $both ? max($both) : null,
    ];
}

function find_row(array $results, string $case, ?int $size, string $contender): ?array
{
    foreach ($results as $r) {
        if ($r['case'] === $case && ($size === null || $r['size'] === $size) && $r['contender'] === $contender && $r['status'] === 'ok') {
            return $r;
        }
    }
    return null;
}

/** vs stock: stock's median time / this one's (above 1 = faster); vs C likewise. */
function add_ratios(array &$results, array $cases): void
{
    foreach ($results as &$r) {
        if (!isset($cases[$r['case']])) {
            continue; // the HTTP rows bring their own ratios
        }
        $r['vs_stock'] = $r['vs_ref'] = null;
        if ($r['status'] !== 'ok') {
            continue;
        }
        $base = CONTENDERS[$r['contender']]['base'] ?? 'stock';
        $b = find_row($results, $r['case'], $r['size'], $base);
        if ($b && $r['wall_median'] > 0) {
            $r['vs_stock'] = $b['wall_median'] / $r['wall_median'];
        }
        $refId = $cases[$r['case']]['ref'];
        $ref = $refId ? find_row($results, $r['case'], $r['size'], $refId) : null;
        if ($ref && $r['wall_median'] > 0) {
            $r['vs_ref'] = $ref['wall_median'] / $r['wall_median'];
        }
        if (!empty($cases[$r['case']]['ends'])) {
            // CPU the other way up: this row's / stock's, below 1 is cheaper.
            $s = find_row($results, $r['case'], $r['size'], 'stock');
            foreach (['cpu_median' => 'cpu_vs_stock', 'receiver_cpu_median' => 'receiver_vs_stock', 'both_cpu_median' => 'both_vs_stock'] as $f => $to) {
                $r[$to] = $s && $s[$f] > 0 && $r[$f] !== null ? $r[$f] / $s[$f] : null;
            }
        }
    }
    unset($r);
    // Which route costs the two ends together least, per case and size: every ratio to it.
    $cheapest = [];
    foreach ($results as $r) {
        $k = $r['case'] . '@' . $r['size'];
        if (!empty($cases[$r['case']]['ends']) && $r['status'] === 'ok' && $r['both_cpu_median'] !== null
            && (!isset($cheapest[$k]) || $r['both_cpu_median'] < $cheapest[$k]['both_cpu_median'])) {
            $cheapest[$k] = $r;
        }
    }
    foreach ($results as &$r) {
        $c = $cheapest[$r['case'] . '@' . $r['size']] ?? null;
        if ($c !== null) {
            $r['cheapest_both'] = $c['contender'];
            $r['both_vs_cheapest'] = $r['status'] === 'ok' && $c['both_cpu_median'] > 0 ? $r['both_cpu_median'] / $c['both_cpu_median'] : null;
        }
    }
}

/** Share of all CPUs busy over the next $ms milliseconds, from /proc/stat. */
function cpu_busy(int $ms): float
{
    $read = static function (): array {
        $f = explode(' ', preg_replace('/\s+/', ' ', strtok((string) file_get_contents('/proc/stat'), "\n")));
        $v = array_map('intval', array_slice($f, 1));
        return [array_sum($v), $v[3] + ($v[4] ?? 0)]; // total, idle + iowait
    };
    [$t0, $i0] = $read();
    usleep($ms * 1000);
    [$t1, $i1] = $read();
    return $t1 > $t0 ? 1 - ($i1 - $i0) / ($t1 - $t0) : 0.0;
}

/**
 * Waits (within a bounded budget) until nothing else is using more than a
 * quarter of the machine, so a neighbour's burst doesn't land on one
 * contender's run. Between runs nothing of ours is running.
 */
function wait_quiet(array &$cfg): void
{
    if ($cfg['quiet_budget'] <= 0) {
        return;
    }
    $t0 = microtime(true);
    while (cpu_busy(50) > 0.25) {
        if (microtime(true) - $t0 > 3 || $cfg['quiet_waited'] + (microtime(true) - $t0) > $cfg['quiet_budget']) {
            $cfg['quiet_busy_runs']++;
            break;
        }
        usleep(200000);
    }
    $cfg['quiet_waited'] += microtime(true) - $t0;
}

/**
 * The contenders in a shuffled order per repetition $rep (the same for a given $rep
 * in every run): for cases where one contender leaves work behind that lands on the
 * next one (the upload case, before the VM's free page reporting was switched off:
 * bench/README), which a rotation would pin on the same neighbour every time. The warm-up, $rep < 0, is unshuffled.
 */
function shuffled(array $ids, int $rep): array
{
    if ($rep < 0) {
        return $ids;
    }
    mt_srand(7919 + $rep);
    shuffle($ids);
    mt_srand();
    return $ids;
}

/** The contenders in the order of repetition $rep: rotated by one each time, so
 *  drift and neighbours hit all of them alike (the warm-up, $rep < 0, is unrotated). */
function rotated(array $ids, int $rep): array
{
    for ($k = 0; $k < max(0, $rep); $k++) {
        $ids[] = array_shift($ids);
    }
    return $ids;
}
