<?php
/* Counts the dependencies between the parts of src/ and those that point from a
 * lower layer to a higher one (docs/internals.md, "Layers").
 *
 *   php tools/layers.php            this checkout
 *   php tools/layers.php DIR        another tree, e.g. an older commit's:
 *                                   git archive f7c8bcb | tar -x -C DIR
 *   php tools/layers.php --all      every dependency, with the names behind it
 *
 * A dependency is one part using a name another part defines: a function defined
 * in a .c file, or a macro, type or enum constant defined in a header. A header's
 * declarations of functions are not uses. Exits 1 when a dependency points up. */

/* Parts from the bottom up: [layer name, path prefixes]. The older layout's files
 * are mapped by their job too, so that an older tree can be counted the same way. */
const LAYERS = [
	['public header', ['php_fastcopy.h']],
	['core', ['src/core/', 'src/stats.c', 'src/sigpipe.c']],
	['endpoint', ['src/endpoint/']],
	['paths', ['src/paths/']],
	['sapi', ['src/sapi/']],
	['input', ['src/input/']],
	['engine', ['src/engine.']],
	['functions', ['src/functions/', 'src/override.c', 'src/copy_file.c']],
	['module', ['php_fastcopy.c']],
];

function layer_of(string $file): ?int
{
	foreach (LAYERS as $i => [, $prefixes]) {
		foreach ($prefixes as $prefix) {
			if (str_starts_with($file, $prefix)) {
				return $i;
			}
		}
	}
	return null;
}

/** The file's code without comments and string literals. */
function code_of(string $path): string
{
	$code = preg_replace('~/\*.*?\*/~s', '', file_get_contents($path));
	$code = preg_replace('~//[^\n]*~', '', $code);
	return preg_replace('~"(?:[^"\\\\\n]|\\\\.)*"~', '""', $code);
}

/** name => file for every function, macro, type and enum constant the tree defines. */
function definitions(array $code): array
{
	$defined = [];
	foreach ($code as $file => $c) {
		$names = [];
		preg_match_all('~^(?!static\b(?!\s+inline))(?:PHP_FASTCOPY_API\s+)?(?:static\s+inline\s+)?[A-Za-z_][\w \*]*?\b([a-z_]\w*)\s*\([^;{]*\)\s*\{~m', $c, $m);
		$names = array_merge($names, $m[1]);
		preg_match_all('~^(?:static\s+)?ZEND_INI_MH\((\w+)\)\s*\{~m', $c, $m);
		$names = array_merge($names, $m[1]);
		if (str_ends_with($file, '.h')) {
			preg_match_all('~^\s*#\s*define\s+(\w+)~m', $c, $m);
			$names = array_merge($names, array_filter($m[1], fn ($n) => !str_ends_with($n, '_H')));
			preg_match_all('~^\}\s*(\w+)\s*;~m', $c, $m);
			$names = array_merge($names, $m[1]);
			preg_match_all('~^typedef\b[^;{]*?\b(\w+)\s*;~m', $c, $m);
			$names = array_merge($names, $m[1]);
			preg_match_all('~^(?:typedef\s+)?enum\s*\{(.*?)\}~ms', $c, $m);
			foreach ($m[1] as $body) {
				preg_match_all('~^\s*([A-Z_][A-Z0-9_]*)\b~m', $body, $constants);
				$names = array_merge($names, $constants[1]);
			}
		}
		foreach ($names as $name) {
			if (!in_array($name, ['if', 'while', 'for', 'switch'], true)) {
				$defined[$name] = $file;
			}
		}
	}
	return $defined;
}

$root = getcwd();
$all = false;
foreach (array_slice($argv, 1) as $arg) {
	if ($arg === '--all') {
		$all = true;
	} else {
		$root = rtrim($arg, '/');
	}
}
if (!is_dir("$root/src")) {
	fwrite(STDERR, "usage: php tools/layers.php [--all] [DIR]  (DIR holds src/)\n");
	exit(2);
}

$code = [];
$files = new RecursiveIteratorIterator(new RecursiveDirectoryIterator("$root/src", FilesystemIterator::SKIP_DOTS));
foreach ($files as $path) {
	if (preg_match('~\.[ch]$~', (string) $path)) {
		$code[substr((string) $path, strlen($root) + 1)] = code_of((string) $path);
	}
}
foreach (['php_fastcopy.c', 'php_fastcopy.h'] as $file) {
	$code[$file] = code_of("$root/$file");
}
$defined = definitions($code);

$edges = [];
foreach ($code as $file => $c) {
	$from = layer_of($file);
	preg_match_all('~\b([A-Za-z_]\w*)\b~', $c, $m);
	foreach (array_unique($m[1]) as $name) {
		$at = $defined[$name] ?? null;
		if ($at === null || (str_ends_with($file, '.h') && str_ends_with($at, '.c'))) {
			continue;
		}
		$to = layer_of($at);
		if ($from === null || $to === null || $to === $from) {
			continue;
		}
		$edges["$from $to"][] = "$file:$name";
	}
}
ksort($edges, SORT_NATURAL);

$up = 0;
foreach ($edges as $edge => $uses) {
	[$from, $to] = array_map('intval', explode(' ', $edge));
	if ($from < $to) {
		$up++;
	}
	if ($all || $from < $to) {
		printf("%s%s -> %s: %s\n", $from < $to ? 'UP ' : '   ', LAYERS[$from][0], LAYERS[$to][0],
			implode(' ', array_unique($uses)));
	}
}
printf("%d dependencies between parts, %d pointing up\n", count($edges), $up);
exit($up > 0 ? 1 : 0);
