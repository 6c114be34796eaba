#!/usr/bin/env bash
# Runs PHP's own tests for stream_copy_to_stream(), fpassthru(), readfile(),
# copy() and file_put_contents() twice with run-tests.php: stock, then with
# `-d extension=fastcopy.so -d fastcopy.override=1`, and reports every test
# whose outcome differs. Tests that fail in both runs are listed as
# pre-existing (Debian's build fails a few anyway); only differences count.
#
# The tests are fetched at run time (never committed): from --src/$PHP_SRC, from
# an unpacked tree under /work/src, from a cache, or with `apt-get source` (the
# Debian upload of the PHP version under test when there is one).
#
# usage: tests/php-src/run.sh [-j N] [--php PATH] [--src DIR] [--so PATH] [--keep] [--fetch]
#   --php    the PHP to test (default: TEST_PHP_EXECUTABLE, else php in PATH)
#   --src    its source tree (tests, and run-tests.php when PHP's build dir has none)
#   --fetch  ignore unpacked trees under /work/src (use the cache or apt-get source)
# env:   FASTCOPY_SO, PHP_SRC, TEST_PHP_EXECUTABLE, FCSRC_CACHE
# The last line is "N passed, N failed, N skipped": a test whose outcome the override
# changes failed, one it leaves alone passed (skipped, when it skips both times).
# exit:  0 no differences, 1 differences, 2 could not run
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
php="${TEST_PHP_EXECUTABLE:-$(command -v php)}"
so="${FASTCOPY_SO:-$root/modules/fastcopy.so}"
jobs=2
keep=0
fetch=0
while [ $# -gt 0 ]; do
    case "$1" in
        -j) jobs="$2"; shift 2 ;;
        --so) so="$2"; shift 2 ;;
        --php) php="$2"; shift 2 ;;
        --src) PHP_SRC="$2"; shift 2 ;;
        --keep) keep=1; shift ;;
        --fetch) fetch=1; shift ;;
        *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

die() { echo "php-src: $*" >&2; exit 2; }

[ -x "$php" ] || die "no php binary"
[ -f "$so" ] || die "module not built: $so (build first, or pass --so / FASTCOPY_SO)"
so="$(cd "$(dirname "$so")" && pwd)/$(basename "$so")"
extdir="$("$php" -n -r 'echo PHP_EXTENSION_DIR;')"
mm="$("$php" -n -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;')"
full="$("$php" -n -r 'echo PHP_VERSION;')"

# ---- locate a php$mm source tree -------------------------------------------
cache="${FCSRC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fastcopy-php-src}"
find_src() {
    local d local=()
    [ "$fetch" = 1 ] || local=(/work/src/php"$mm"-"$full" /work/src/php"$mm"-*)
    for d in "${PHP_SRC:-}" "${local[@]}" "$cache/php-$full" "$cache"/php-"$mm".*; do
        [ -n "$d" ] && [ -d "$d/ext/standard/tests/file" ] && { echo "$d"; return 0; }
    done
    return 1
}

fetch_src() {
    [ "$(id -u)" -eq 0 ] || die "no php$mm source tree and not root to fetch one (set PHP_SRC)"
    export DEBIAN_FRONTEND=noninteractive
    # (the helper is in the git tree, not in the pecl package's tests/)
    . "$root/tools/php-source.sh" || die "cannot fetch without tools/php-source.sh (set PHP_SRC)"
    php_source_deb_src "$mm" || die "apt-get update failed"
    local dl tarball want
    dl="$(mktemp -d)"
    # the upload of this very version first (a x.y.z-N Debian version)
    want="$(apt-cache showsrc "php$mm" | awk -v v="$full-" '/^Version:/ && index($2, v) == 1 {print $2}' | sort -rV | head -n 1)"
    if php_source_download "$mm" "$dl" "$want" >/dev/null; then
        tarball="$(ls "$dl"/php"$mm"_*.orig.tar.* 2>/dev/null | head -1)"
    fi
    [ -n "${tarball:-}" ] || die "apt-get source php$mm: no version downloaded"
    mkdir -p "$cache"
    local upstream
    upstream="$(basename "$tarball" | sed -E 's/^php[0-9.]+_([^.]+\.[^.]+\.[^.]+)\.orig.*/\1/')"
    mkdir -p "$cache/php-$upstream"
    tar -xf "$tarball" -C "$cache/php-$upstream" --strip-components=1 || die "cannot unpack $tarball"
    rm -rf "$dl"
    echo "php-src: fetched php$mm $upstream source into $cache/php-$upstream" >&2
}

src="$(find_src)" || { fetch_src; src="$(find_src)" || die "no php$mm source tree"; }
# Debian's php-dev installs run-tests.php in its build dir; a PHP built from source
# (make install) does not, and its source tree has it.
run_tests="${RUN_TESTS:-$extdir/build/run-tests.php}"
[ -f "$run_tests" ] || run_tests="$src/run-tests.php"
[ -f "$run_tests" ] || die "run-tests.php neither in $extdir/build (install php$mm-dev) nor in $src"

# ---- select the tests -------------------------------------------------------
# Every .phpt in these directories that calls one of the four functions.
dirs=(ext/standard/tests/file ext/standard/tests/streams ext/standard/tests/filters
      ext/standard/tests/general_functions ext/zlib/tests ext/phar/tests sapi/cli/tests
      tests/security ext/spl/tests Zend/tests)
work="$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-php-src.XXXXXX")"
# (the counts the comparison wrote stay the last line, whatever else is said)
cleanup() {
    [ "$keep" = 1 ] && echo "php-src: kept $work"
    [ -f "$work/counts" ] && cat "$work/counts"
    [ "$keep" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT

list="$work/tests.txt"
: > "$list"
for d in "${dirs[@]}"; do
    [ -d "$src/$d" ] || continue
    (cd "$src" && grep -rlE --include='*.phpt' \
        '(^|[^_a-zA-Z0-9>:$])(stream_copy_to_stream|fpassthru|readfile|copy)[[:space:]]*\(' "$d") >> "$list" || true
    # file_put_contents() sets up most of PHP's tests; its own tests are the ones named for it
    (cd "$src" && find "$d" -name 'file_put_contents*.phpt') >> "$list"
done
sort -u -o "$list" "$list"
count="$(wc -l < "$list")"
[ "$count" -gt 0 ] || die "no tests found under $src"

# run-tests writes its .out/.diff beside each test: run on copies of the
# directories, never in the source tree.
run_once() {
    local name="$1"; shift
    local tree="$work/$name"
    mkdir -p "$tree"
    # whole test dirs: tests include neighbours, fixtures and ../ siblings
    local d
    for d in ext/standard/tests "${dirs[@]}"; do
        [ -d "$src/$d" ] && [ ! -d "$tree/$d" ] || continue
        mkdir -p "$tree/$(dirname "$d")"
        cp -a "$src/$d" "$tree/$(dirname "$d")/"
    done
    # Canary: proves the -d settings reach the tests (PASS only with the override on).
    printf '%s\n' '--TEST--' 'fastcopy canary' '--FILE--' \
        '<?php echo ini_get("fastcopy.override"), " ", function_exists("fastcopy_stats") ? "loaded" : "absent";' \
        '--EXPECT--' '1 loaded' > "$tree/fastcopy_canary.phpt"
    (cd "$tree" && TEST_PHP_EXECUTABLE="$php" TEST_PHP_SRCDIR="$tree" NO_INTERACTION=1 \
        "$php" "$run_tests" -p "$php" -q --no-color -j"$jobs" "$@" fastcopy_canary.phpt $(cat "$list") \
        > "$work/$name.log" 2>&1)
}

echo "php-src: $count tests from $src (php $full)"
run_once stock
run_once override -d "extension=$so" -d fastcopy.override=1

# ---- compare ----------------------------------------------------------------
"$php" -n -d display_errors=stderr -- "$work" <<'PHP'
<?php
$work = $argv[1];
function outcomes(string $log): array {
    $r = [];
    foreach (preg_split('/[\r\n]+/', (string) file_get_contents($log)) as $l) {
        // with -j, results follow a "TEST n/N [workers]" progress prefix
        $l = preg_replace('/^TEST \d+\/\d+ \[[^\]]*\]\s*/', '', $l);
        if (preg_match('/^(PASS|FAIL|SKIP|XFAIL|XLEAK|BORK|LEAK|WARN|LEAK&FAIL)\s.*?\[([^\]]+\.phpt)\]/', $l, $m)) {
            $r[$m[2]] = $m[1];
        }
    }
    return $r;
}
$s = outcomes("$work/stock.log");
$o = outcomes("$work/override.log");
$canary = [$s['fastcopy_canary.phpt'] ?? 'MISSING', $o['fastcopy_canary.phpt'] ?? 'MISSING'];
if ($canary !== ['FAIL', 'PASS']) {
    echo "php-src: the override run did not run with the override on (canary: stock {$canary[0]}, override {$canary[1]})\n";
    exit(2);
}
unset($s['fastcopy_canary.phpt'], $o['fastcopy_canary.phpt']);
$tests = array_unique(array_merge(array_keys($s), array_keys($o)));
sort($tests);
$diff = $pre = [];
$counts = [];
foreach ($tests as $t) {
    $a = $s[$t] ?? 'MISSING';
    $b = $o[$t] ?? 'MISSING';
    $counts[$a] = ($counts[$a] ?? 0) + 1;
    if ($a !== $b) {
        $diff[] = "  $t: stock $a, override $b";
        $d = "$work/override/" . preg_replace('/\.phpt$/', '.diff', $t);
        if (is_file($d)) {
            foreach (array_slice(file($d, FILE_IGNORE_NEW_LINES), 0, 12) as $l) {
                $diff[] = "      $l";
            }
        }
    } elseif (in_array($a, ['FAIL', 'BORK', 'LEAK', 'LEAK&FAIL', 'WARN'], true)) {
        $pre[] = "  $t: $a in both runs";
    }
}
ksort($counts);
echo 'php-src: stock outcomes: ', json_encode($counts), "\n";
if ($pre) {
    echo "php-src: pre-existing (same outcome without the extension):\n", implode("\n", $pre), "\n";
}
if ($diff) {
    echo "php-src: outcome differs with fastcopy.override=1:\n", implode("\n", $diff), "\n";
}
$differ = count(array_filter($diff, fn ($l) => !str_starts_with($l, '      ')));
printf("php-src: %d tests compared, %d same outcome, %d differ\n", count($tests), count($tests) - $differ, $differ);
// In the suite's terms: a test the override changes failed; one it leaves alone passed,
// or skipped when it skips in both runs.
$skipped = count(array_filter($tests, fn ($t) => ($s[$t] ?? '') === 'SKIP' && ($o[$t] ?? '') === 'SKIP'));
file_put_contents("$work/counts", sprintf("%d passed, %d failed, %d skipped\n", count($tests) - $differ - $skipped, $differ, $skipped));
exit($diff ? 1 : 0);
PHP
rc=$?
[ "$rc" -eq 0 ] || keep=1
exit "$rc"
