<?php
// Shared harness of the case scripts in bench/cases/. Each case script is one
// contender: it hands fcb_run() a closure doing the copy the way users write
// it, and this file does the rest the same way for everyone: parse the
// key=value arguments, open the endpoints, time only the copy (wall, CPU of
// this process), and write one JSON report for the runner.
//
//   php case.php src=PATH dst=SPEC [offset=N] [length=N] [count=N] report=FILE
//
// dst SPEC: file:PATH | dir:PATH (count small files f000000...) |
//           tcp:HOST:PORT | unix:PATH | stdout | output | memory
declare(strict_types=1);

// fc_stats_delta(): the one reading of fastcopy_stats() the tests use too.
require_once dirname(__DIR__, 2) . '/tests/inc/stats.inc';

function fcb_args(): array
{
    $a = [];
    foreach (array_slice($_SERVER['argv'], 1) as $arg) {
        [$k, $v] = explode('=', $arg, 2) + [1 => ''];
        $a[$k] = $v;
    }
    foreach (['src', 'dst', 'report'] as $k) {
        if (!isset($a[$k])) {
            fwrite(STDERR, "missing $k=\n");
            exit(2);
        }
    }
    return $a;
}

/** @return resource */
function fcb_open_dst(string $dst)
{
    $s = match (true) {
        str_starts_with($dst, 'file:') => fopen(substr($dst, 5), 'wb'),
        str_starts_with($dst, 'tcp:') => stream_socket_client('tcp://' . substr($dst, 4), $errno, $errstr, 5),
        str_starts_with($dst, 'unix:') => stream_socket_client('unix://' . substr($dst, 5), $errno, $errstr, 5),
        $dst === 'stdout' => fopen('php://stdout', 'wb'),
        $dst === 'output' => fopen('php://output', 'wb'),
        $dst === 'memory' => fopen('php://memory', 'w+b'),
        default => false,
    };
    if ($s === false) {
        throw new RuntimeException("cannot open destination $dst");
    }
    return $s;
}

/**
 * wrap=nextcloud: the source as OC\Files\View::fopen() hands it out, behind
 * icewind/streams 0.7.7's CallbackWrapper with only a close callback (the real
 * library, from tests/integration/setup.sh's Composer project).
 * @param resource $in
 * @return resource
 */
function fcb_wrap($in, ?string $wrap)
{
    if ($wrap === null) {
        return $in;
    }
    require_once dirname(__DIR__, 2) . '/tests/integration/libs.inc';
    $autoload = fclib_autoload('dav');
    if ($wrap !== 'nextcloud' || $autoload === null) {
        throw new RuntimeException("cannot wrap the source ($wrap): run tests/integration/setup.sh");
    }
    require_once $autoload;
    return \Icewind\Streams\CallbackWrapper::wrap($in, null, null, static function (): void {
    });
}

// A stat of a path that can't exist: one recognisable syscall that tells the
// strace pass where the copy starts and ends.
function fcb_mark(string $what): void
{
    @file_exists("/fcbench-mark-$what");
}

function fcb_cpu(): float
{
    $r = getrusage();
    return $r['ru_utime.tv_sec'] + $r['ru_utime.tv_usec'] / 1e6 + $r['ru_stime.tv_sec'] + $r['ru_stime.tv_usec'] / 1e6;
}

function fcb_stats(): ?array
{
    return function_exists('fastcopy_stats') ? fastcopy_stats() : null;
}

/**
 * Runs one timed copy. $copy gets a context array and returns the bytes
 * copied (or false): in/out streams (when $openStreams), src/dst paths,
 * length (null = to EOF) and offset.
 */
function fcb_run(callable $copy, bool $openStreams = true): void
{
    $a = fcb_args();
    $ctx = [
        'src' => $a['src'],
        'dst' => $a['dst'],
        'length' => isset($a['length']) ? (int) $a['length'] : null,
        'offset' => (int) ($a['offset'] ?? 0),
        'in' => null,
        'out' => null,
    ];
    $report = ['ok' => false, 'bytes' => 0];
    set_error_handler(static function (int $no, string $msg): bool {
        throw new ErrorException($msg, 0, $no);
    });
    try {
        $stats0 = fcb_stats();
        if (str_starts_with($ctx['dst'], 'dir:')) {
            // Thousands of small files: open + copy + close is the unit of work.
            $dir = substr($ctx['dst'], 4);
            $count = (int) ($a['count'] ?? 1);
            fcb_mark('begin');
            $c0 = fcb_cpu();
            $t0 = hrtime(true);
            $bytes = 0;
            for ($i = 0; $i < $count; $i++) {
                $c = $ctx;
                $c['src'] = sprintf('%s/f%06d', $ctx['src'], $i);
                $c['dst_path'] = sprintf('%s/f%06d', $dir, $i);
                if ($openStreams) {
                    $c['in'] = fopen($c['src'], 'rb');
                    $c['out'] = fopen($c['dst_path'], 'wb');
                }
                $n = $copy($c);
                if ($n === false) {
                    throw new RuntimeException("copy of {$c['src']} failed");
                }
                $bytes += $n;
                if ($openStreams) {
                    fclose($c['in']);
                    fclose($c['out']);
                }
            }
        } else {
            if (str_starts_with($ctx['dst'], 'file:')) {
                $ctx['dst_path'] = substr($ctx['dst'], 5);
            }
            if ($openStreams) {
                $ctx['in'] = fcb_wrap(fopen($ctx['src'], 'rb'), $a['wrap'] ?? null);
                $ctx['out'] = fcb_open_dst($ctx['dst']);
            }
            $socket = (bool) preg_match('/^(tcp|unix):/', $ctx['dst']);
            fcb_mark('begin');
            $c0 = fcb_cpu();
            $t0 = hrtime(true);
            $bytes = $copy($ctx);
            if ($bytes === false) {
                throw new RuntimeException('copy returned false');
            }
            if ($socket) {
                // Count delivery, not queueing: the drain closes after our EOF.
                stream_socket_shutdown($ctx['out'], STREAM_SHUT_WR);
                while (!feof($ctx['out']) && fread($ctx['out'], 4096) !== '') {
                }
            }
            while (ob_get_level() > 0) {
                ob_end_flush();
            }
            if ($ctx['out'] !== null && $ctx['dst'] !== 'memory') {
                fflush($ctx['out']);
            }
        }
        $t1 = hrtime(true);
        $c1 = fcb_cpu();
        fcb_mark('end');
        if ($ctx['dst'] === 'memory') {
            // What landed in memory is the proof the copy happened.
            $report['memory_size'] = fstat($ctx['out'])['size'];
        }
        $r = getrusage();
        $report = [
            'ok' => true,
            'bytes' => $bytes,
            'wall' => ($t1 - $t0) / 1e9,
            'cpu' => $c1 - $c0,
            'maxrss_kb' => $r['ru_maxrss'],
            'engine' => fc_stats_active(fc_stats_delta($stats0, fcb_stats())),
        ] + $report;
    } catch (Throwable $e) {
        $report['error'] = $e->getMessage();
    }
    restore_error_handler();
    file_put_contents($a['report'], json_encode($report) . "\n");
    exit($report['ok'] ? 0 : 1);
}
