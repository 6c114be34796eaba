<?php
/* Keeps package.xml's file list equal to what the release needs.
 *
 *   php tools/package-xml.php --check   exit 1 and name the files when the list is stale
 *   php tools/package-xml.php --write   rewrite the <contents> section from git
 *
 * What ships: the build files, the sources, the stub and its arginfo, the tests and
 * the documents. Benchmark, CI and tools stay in the repository. */

const SHIPPED = '~^(config\.(m4|w32)|php_fastcopy\.[ch]|fastcopy\.stub\.php|fastcopy_arginfo\.h|src/.*|tests/.*|README\.md|LICENSE|CHANGELOG\.md)$~';

function role(string $path): string
{
	if (str_starts_with($path, 'tests/')) {
		return 'test';
	}
	return in_array($path, ['README.md', 'LICENSE', 'CHANGELOG.md'], true) ? 'doc' : 'src';
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

if ($mode === '--write') {
	$lines = array_map(fn ($f) => sprintf('   <file name="%s" role="%s"/>', $f, role($f)), $want);
	$contents = "<contents>\n  <dir name=\"/\">\n" . implode("\n", $lines) . "\n  </dir>\n </contents>";
	$xml = preg_replace('~<contents>.*</contents>~s', $contents, $xml, 1, $n);
	if ($n !== 1) {
		fwrite(STDERR, "package.xml has no <contents> section\n");
		exit(2);
	}
	file_put_contents($path, $xml);
	echo count($want), " files listed\n";
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
if ($missing || $stale) {
	echo "Run: php tools/package-xml.php --write\n";
	exit(1);
}
echo "package.xml lists all ", count($want), " files\n";
