--TEST--
README.md, CHANGELOG.md and docs/: every relative link and image resolves, anchors included
--SKIPIF--
<?php
require __DIR__ . '/docs.inc';
if (fcdocs_root() === null) die('skip README.md and docs/ are not beside the tests (an installed package)');
?>
--FILE--
<?php
require __DIR__ . '/docs.inc';

$root = fcdocs_root();
$files = array_merge(['README.md', 'CHANGELOG.md'], array_map(fn (string $f): string => 'docs/' . basename($f), glob("$root/docs/*.md")));
$problems = [];
$checked = $anchored = 0;
$anchors = [];
foreach ($files as $file) {
	$md = file_get_contents("$root/$file");
	foreach (fcdocs_links($md) as [$target, $line]) {
		if (preg_match('~^[a-z][a-z0-9+.-]*:~i', $target)) {
			continue; // https:, mailto:: not this test's to check
		}
		$checked++;
		[$path, $anchor] = array_pad(explode('#', $target, 2), 2, null);
		$to = $path === '' ? "$root/$file" : dirname("$root/$file") . '/' . rawurldecode($path);
		if (!file_exists($to)) {
			$problems[] = "$file:$line: $target: no such file";
			continue;
		}
		if ($anchor === null) {
			continue;
		}
		$anchored++;
		$real = realpath($to);
		$anchors[$real] ??= str_ends_with($real, '.md') ? fcdocs_anchors(file_get_contents($real)) : [];
		if (!in_array($anchor, $anchors[$real], true)) {
			$problems[] = "$file:$line: $target: no heading makes the anchor #$anchor";
		}
	}
}
printf("%d files, %d relative links, %d with an anchor\n", count($files), $checked, $anchored);
echo $problems === [] ? "all resolve\n" : 'DEAD: ' . implode("\nDEAD: ", $problems) . "\n";
?>
--EXPECTF--
%d files, %d relative links, %d with an anchor
all resolve
