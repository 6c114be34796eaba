<?php
/* Keeps package.xml's file list equal to what the release needs.
 *
 *   php tools/package-xml.php --check   exit 1 and name the files when the list is stale
 *   php tools/package-xml.php --write   rewrite the <contents> section from git
 *
 * What ships: the build files, the sources, the stub and its arginfo, the tests and
 * the documents (README, docs/, CHANGELOG, LICENSE) and the web servers' configuration
 * for the hand-over (conf/). Benchmark, CI and tools stay in the repository.
 *
 * The PHP versions are declared once, in composer.json (">=8.1 <8.7"); package.xml's
 * <php><min>/<max> must say the same (8.1.0 and 8.6.99), and --write makes it. */

const SHIPPED = '~^(config\.(m4|w32)|config/.*|php_fastcopy\.[ch]|fastcopy\.stub\.php|fastcopy_arginfo\.h|src/.*|tests/.*|README\.md|LICENSE|CHANGELOG\.md|docs/.*\.md|conf/.*)$~';

function role(string $path): string
{
	if (str_starts_with($path, 'tests/')) {
		return 'test';
	}
	return in_array($path, ['README.md', 'LICENSE', 'CHANGELOG.md'], true) || str_starts_with($path, 'docs/')
		|| str_starts_with($path, 'conf/') ? 'doc' : 'src';
}

function shipped_files(string $root): array
{
	exec('git -C ' . escapeshellarg($root) . ' ls-files', $all, $status);
	if ($status !== 0) {
		fwrite(STDERR, "git ls-files failed\n");
		exit(2);
	}
	$files = array_values(array_filter($all, fn ($f) => preg_match(SHIPPED, $f)));
	sort($files);
	return $files;
}

/** [min, max] for package.xml from composer.json's require.php, ">=X.Y <A.B" */
function php_range(string $root): array
{
	$composer = json_decode(file_get_contents("$root/composer.json"), true, 512, JSON_THROW_ON_ERROR);
	$constraint = $composer['require']['php'] ?? '';
	if (!preg_match('~^>=(\d+)\.(\d+) <(\d+)\.(\d+)$~', $constraint, $m) || $m[4] === '0') {
		fwrite(STDERR, "composer.json: require.php must read \">=X.Y <A.B\" (B > 0), not \"$constraint\"\n");
		exit(2);
	}
	return ["$m[1].$m[2].0", "$m[3]." . ($m[4] - 1) . '.99'];
}

function php_range_xml(array $range): string
{
	return "<php>\n    <min>$range[0]</min>\n    <max>$range[1]</max>\n   </php>";
}

function listed_files(string $xml): array
{
	preg_match_all('~<file name="([^"]+)" role="[a-z]+"\s*/>~', $xml, $m);
	$files = $m[1];
	sort($files);
	return $files;
}

$root = dirname(__DIR__);
$path = "$root/package.xml";
$xml = file_get_contents($path);
$mode = $argv[1] ?? '--check';
$want = shipped_files($root);
$range = php_range($root);

if ($mode === '--write') {
	$lines = array_map(fn ($f) => sprintf('   <file name="%s" role="%s"/>', $f, role($f)), $want);
	$contents = "<contents>\n  <dir name=\"/\">\n" . implode("\n", $lines) . "\n  </dir>\n </contents>";
	$xml = preg_replace('~<contents>.*</contents>~s', $contents, $xml, 1, $n);
	if ($n !== 1) {
		fwrite(STDERR, "package.xml has no <contents> section\n");
		exit(2);
	}
	$xml = preg_replace('~<php>.*?</php>~s', php_range_xml($range), $xml, 1, $n);
	if ($n !== 1) {
		fwrite(STDERR, "package.xml has no <php> dependency\n");
		exit(2);
	}
	file_put_contents($path, $xml);
	echo count($want), " files listed, PHP $range[0] to $range[1]\n";
	exit(0);
}

$have = listed_files($xml);
$missing = array_diff($want, $have);
$stale = array_diff($have, $want);
foreach ($missing as $f) {
	echo "package.xml lacks $f\n";
}
foreach ($stale as $f) {
	echo "package.xml lists $f, which is not in the repository\n";
}
$php_ok = str_contains($xml, php_range_xml($range));
if (!$php_ok) {
	echo "package.xml does not declare PHP $range[0] to $range[1], as composer.json does\n";
}
if ($missing || $stale || !$php_ok) {
	echo "Run: php tools/package-xml.php --write\n";
	exit(1);
}
echo "package.xml lists all ", count($want), " files, PHP $range[0] to $range[1]\n";
