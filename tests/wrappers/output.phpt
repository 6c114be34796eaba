--TEST--
wrappers: php://output under the CLI (stdout a pipe): a wrapped source into it, and a CallbackWrapper around it as the destination (random cases, seed 4711) - fastcopy_stream() == stream_copy_to_stream()
--DESCRIPTION--
Each case runs twice, in a child PHP whose stdout is a pipe (as
tests/paths/stats_reasons.phpt does), once with stock stream_copy_to_stream() and
once with fastcopy_stream(): a file, php://memory or a pipe behind icewind/streams
0.7.7's CallbackWrapper (close callback only, nested, or with a read callback)
copied into php://output, or a plain or wrapped file copied into a CallbackWrapper
around php://output (close callback only, nested, or with a write callback). The
bytes that reach the pipe, the return value, positions, next reads, seeks, warnings,
feof() (docs/differences.md, 10), the close callbacks and fastcopy_stats()' wrappers are
compared or checked as in differential_source.phpt; the child says nothing else
on stdout or stderr.
--SKIPIF--
<?php require __DIR__ . '/../inc/wrappers.inc'; fcw_skipif(); ?>
--INI--
fastcopy.disable=
--FILE--
<?php
require __DIR__ . '/../inc/wrappers.inc';
$r = new Random\Randomizer(new Random\Engine\Mt19937(4711));
$sources = [['cb', 'file'], ['cb', 'file'], ['nested', 'file'], ['cb_read', 'file'], ['cb', 'memory'], ['cb', 'pipe']];
$intoWrapper = [[null, 'file'], [null, 'file'], ['cb', 'file'], [null, 'memory']];
$wrappedOutput = [['cb', 'stdout'], ['cb', 'stdout'], ['nested', 'stdout'], ['cb_write', 'stdout']];
$n = 16;
$bad = 0;
for ($i = 0; $i < $n; $i++) {
    $c = $i % 2 === 0 ? fcw_case($r, $sources, [[null, 'stdout']]) : fcw_case($r, $intoWrapper, $wrappedOutput);
    $stock = fcw_run_child('stream_copy_to_stream', $c);
    $fast = fcw_run_child('fastcopy_stream', $c);
    $d = fcw_compare($c, $stock, $fast);
    foreach (['stock' => $stock, 'fastcopy' => $fast] as $who => $run) {
        if ($run['stderr'] !== '') {
            $d[] = "$who said on stderr: " . $run['stderr'];
        }
    }
    if ($d) {
        $bad++;
        echo "case $i: ", fcw_label($c), "\n    ", implode("\n    ", $d), "\n";
    }
}
printf("seed 4711: %d cases, %d differ\n", $n, $bad);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/streams.inc';
fc_clean();
?>
--EXPECT--
seed 4711: 16 cases, 0 differ
