--TEST--
README: the ini block loads with every setting at its stated default, and each PHP example runs against the built module with the output README shows
--SKIPIF--
<?php
require __DIR__ . '/docs.inc';
if (fcdocs_root() === null) die('skip README.md and docs/ are not beside the tests (an installed package)');
if (!is_readable('/proc/self/maps')) die('skip needs /proc/self/maps to find the module');
?>
--FILE--
<?php
require __DIR__ . '/docs.inc';

$readme = file_get_contents(fcdocs_root() . '/README.md');
$blocks = fcdocs_blocks($readme);
$module = fcdocs_module();
$problems = [];

// The one ini block: its settings, whether each is commented out, and the default its comment states.
$ini = array_values(array_filter($blocks, fn (array $b): bool => $b[0] === 'ini'));
if (count($ini) !== 1) {
	$problems[] = 'README has ' . count($ini) . ' ini blocks, not one';
}
[, $block, $blockLine] = $ini[0];
$settings = [];
$comment = '';
foreach (explode("\n", $block) as $line) {
	if (preg_match('/^\s*(;\s*)?(fastcopy\.[a-z_]+)\s*=\s*(.*?)\s*$/', $line, $m)) {
		$default = preg_match('/Default:\s*(.+?)\.?\s*$/', $comment, $d) ? ($d[1] === '(empty)' ? '' : $d[1]) : null;
		$settings[$m[2]] = ['value' => $m[3], 'commented' => $m[1] !== '', 'default' => $default];
		$comment = '';
	} elseif (preg_match('/^\s*;(.*)$/', $line, $m)) {
		$comment .= ' ' . trim($m[1]);
	} else {
		$comment = '';
	}
}
if (!preg_match('/^extension=fastcopy\.so$/m', $block)) {
	$problems[] = 'the ini block does not load extension=fastcopy.so';
}

// The module's own settings and defaults, with no ini file at all.
[$rc, $out, $err] = fcdocs_run([PHP_BINARY, '-n', '-d', "extension=$module", '-r', 'echo json_encode(ini_get_all("fastcopy", false));']);
$defaults = json_decode($out, true) ?? [];
if ($rc !== 0 || $defaults === []) {
	$problems[] = "php -n with the module failed: $out$err";
}
foreach ($defaults as $name => $value) {
	if (!isset($settings[$name])) {
		$problems[] = "$name is missing from README's ini block";
	} elseif ($settings[$name]['default'] === null) {
		$problems[] = "$name: its comment in README's ini block states no \"Default:\"";
	} elseif ((string) $value !== $settings[$name]['default']) {
		$problems[] = "$name: README says Default: {$settings[$name]['default']}, the module's is \"$value\"";
	}
}
foreach ($settings as $name => $s) {
	// fastcopy.dev_parameters exists in developer builds only; it is written commented out.
	if (!$s['commented'] && !array_key_exists($name, $defaults)) {
		$problems[] = "$name in README's ini block is not a setting of this module";
	}
}

// The block as a php.ini of its own (nothing else loaded), with the module found in its folder.
$dir = sys_get_temp_dir() . '/fcdocs-' . getmypid();
@mkdir($dir);
file_put_contents("$dir/php.ini", 'extension_dir="' . dirname($module) . "\"\n" . $block . "\n");
$php = [PHP_BINARY, '-c', "$dir/php.ini"];
// no conf.d: an empty folder to scan (proc_open drops a variable set to "")
@mkdir("$dir/conf.d");
$env = ['PHP_INI_SCAN_DIR' => "$dir/conf.d"];
[$rc, $out, $err] = fcdocs_run([...$php, '-r', 'echo json_encode(ini_get_all("fastcopy", false));'], $env);
$loaded = json_decode($out, true);
if ($rc !== 0 || !is_array($loaded) || trim($err) !== '') {
	$problems[] = "PHP with README's ini block failed (exit $rc): $out$err";
	$loaded = [];
}
foreach ($settings as $name => $s) {
	if (!$s['commented'] && array_key_exists($name, $loaded) && (string) $loaded[$name] !== $s['value']) {
		$problems[] = "$name: README's ini block sets \"{$s['value']}\", PHP read \"{$loaded[$name]}\"";
	}
}

// What README says php --ri fastcopy prints, against what it prints with that ini.
[$rc, $ri] = fcdocs_run([...$php, '--ri', 'fastcopy'], $env);
if (preg_match('/^php --ri fastcopy\s+#\s*"([^"]+?)(?:\.\.\.)?"/m', $readme, $m)) {
	if (!str_contains($ri, rtrim($m[1], ' ,'))) {
		$problems[] = "README says php --ri fastcopy prints \"$m[1]\"; it printed:\n$ri";
	}
} else {
	$problems[] = 'README does not show what php --ri fastcopy prints';
}

// Every PHP example, run under that ini; the text block right after it is its output.
$examples = $compared = 0;
foreach ($blocks as $i => [$lang, $code, $line]) {
	if ($lang !== 'php') {
		continue;
	}
	$examples++;
	$file = "$dir/example-$line.php";
	file_put_contents($file, $code . "\n");
	[$rc, $out, $err] = fcdocs_run([...$php, $file], $env);
	$where = "README.md:$line";
	if ($rc !== 0 || trim($err) !== '' || preg_match('/^(PHP )?(Warning|Notice|Deprecated|Fatal error|Parse error)/m', $out)) {
		$problems[] = "$where: the example failed (exit $rc):\n$out$err";
	}
	if (($blocks[$i + 1][0] ?? '') === 'text') {
		$compared++;
		$want = rtrim($blocks[$i + 1][1]);
		if (rtrim($out) !== $want) {
			$problems[] = "$where: the example printed\n" . rtrim($out) . "\nwhere README shows\n$want";
		}
	}
}
exec('rm -rf ' . escapeshellarg($dir));

printf("ini block (README.md:%d): %d settings, every one of the module's written with its default\n", $blockLine, count($settings));
printf("PHP examples: %d run, %d outputs compared\n", $examples, $compared);
echo $problems === [] ? "no problems\n" : 'PROBLEM: ' . implode("\nPROBLEM: ", $problems) . "\n";
?>
--EXPECTF--
ini block (README.md:%d): %d settings, every one of the module's written with its default
PHP examples: %d run, %d outputs compared
no problems
