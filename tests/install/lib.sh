# Shared by tests/install/pie.sh and pecl.sh: each check prints "ok - ..." or
# "FAIL - ...", and inst_finish ends with "N passed, N failed, N skipped".
# They install into the system's PHP (its extension_dir, /etc/php/X.Y), so they
# start from a machine without fastcopy and must leave it exactly so: the state
# of those folders is recorded first and compared at the end.

inst_passed=0
inst_failed=0
inst_ok() { echo "ok - $*"; inst_passed=$((inst_passed + 1)); }
inst_fail() { echo "FAIL - $*"; inst_failed=$((inst_failed + 1)); }
inst_check() { # inst_check "what" command...
	local what=$1
	shift
	if "$@"; then inst_ok "$what"; else inst_fail "$what"; fi
}
inst_finish() {
	echo "$inst_passed passed, $inst_failed failed, 0 skipped"
	[ "$inst_failed" -eq 0 ]
}

inst_php_mm=$(php -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;')
inst_ext_dir=$(php -r 'echo ini_get("extension_dir");')
inst_etc=/etc/php/$inst_php_mm
inst_fpm=$(command -v "php-fpm$inst_php_mm" || command -v php-fpm || true)
inst_tmp=$(mktemp -d)
chmod 755 "$inst_tmp"

# Everything an install may touch: the PHP config tree and the extension folder,
# every entry with its type, link target and content checksum.
inst_state() {
	find "$inst_etc" "$inst_ext_dir" -printf '%y %p -> %l\n' | sort
	find "$inst_etc" "$inst_ext_dir" -type f -print0 | sort -z | xargs -0 md5sum
}

# Whether fastcopy is anywhere PHP looks: a .so, an ini file or link, a loaded
# module, pecl's registry.
inst_fastcopy_anywhere() {
	local found
	found=$(find "$inst_etc" "$inst_ext_dir" -name '*fastcopy*' -printf '%p\n')
	php -m | grep -qix fastcopy && found+=$'\nphp -m lists fastcopy'
	[ -z "$inst_fpm" ] || ! "$inst_fpm" -m | grep -qix fastcopy || found+=$'\nphp-fpm -m lists fastcopy'
	! command -v pecl >/dev/null || ! pecl list 2>/dev/null | grep -qi '^fastcopy ' || found+=$'\npecl list has fastcopy'
	[ -n "$found" ] && echo "$found"
}

# The starting point: no fastcopy anywhere (CI's machine, or one it was removed from).
inst_begin() {
	local found
	if found=$(inst_fastcopy_anywhere); then
		echo "fastcopy is already installed here; these tests need a machine without it:"
		echo "$found"
		return 1
	fi
	inst_state >"$inst_tmp/state.before"
	inst_owned=1
}

# The end: the same folders as before, nothing of fastcopy left.
inst_end_clean() {
	local found
	inst_state >"$inst_tmp/state.after"
	if found=$(inst_fastcopy_anywhere); then
		inst_fail "nothing of fastcopy left after the uninstall: $(echo $found)"
	else
		inst_ok "nothing of fastcopy left after the uninstall (no .so, no ini file or link, not in php -m or php-fpm -m)"
	fi
	if diff -u "$inst_tmp/state.before" "$inst_tmp/state.after"; then
		inst_ok "$inst_etc and $inst_ext_dir exactly as before the install"
	else
		inst_fail "$inst_etc and $inst_ext_dir differ from before the install (diff above)"
	fi
}

# A file copied by fastcopy_stream() in the CLI, as installed (no -d extension=).
inst_cli_copies() {
	local src=$inst_tmp/src.bin dst=$inst_tmp/dst.bin
	head -c 3000001 /dev/urandom >"$src"
	php -r '
		$in = fopen($argv[1], "rb");
		$out = fopen($argv[2], "wb");
		$n = fastcopy_stream($in, $out);
		exit($n === filesize($argv[1]) && ftell($out) === $n ? 0 : 1);' "$src" "$dst" &&
		cmp -s "$src" "$dst"
}

# PHP-FPM as installed (its php.ini and conf.d), one worker on a private unix socket,
# asked over FastCGI by cgi-fcgi: the script sends the file with fastcopy_stream()
# into php://output, so the fastcgi path carries it, and reports in a header
# which path did.
inst_fpm_copies() {
	local d=$inst_tmp/fpm pid out ok=1 user= returned fastcgi version
	[ -n "$inst_fpm" ] || { echo "no php-fpm$inst_php_mm"; return 1; }
	command -v cgi-fcgi >/dev/null || { echo "no cgi-fcgi (libfcgi-bin)"; return 1; }
	mkdir -p "$d"
	head -c 5000011 /dev/urandom >"$d/src.bin"
	cat >"$d/copy.php" <<'PHP'
<?php
$before = fastcopy_stats()['fastcgi']['bytes'];
$n = fastcopy_stream(fopen(__DIR__ . '/src.bin', 'rb'), fopen('php://output', 'wb'));
$fastcgi = fastcopy_stats()['fastcgi']['bytes'] - $before;
// What stock's last write leaves in php.ini's output buffer stays there, as with stock.
$buffered = ob_get_level() > 0 ? ob_get_length() : 0;
file_put_contents(__DIR__ . '/result', "$n $fastcgi $buffered " . phpversion('fastcopy'));
PHP
	[ "$(id -u)" != 0 ] || user=$'user = root\ngroup = root\n'
	printf '[global]\npid = %s\nerror_log = %s\ndaemonize = no\n[install]\n%slisten = %s\npm = static\npm.max_children = 1\n' \
		"$d/fpm.pid" "$d/fpm.log" "$user" "$d/fpm.sock" >"$d/fpm.conf"
	"$inst_fpm" -F -R -y "$d/fpm.conf" >"$d/fpm.out" 2>&1 &
	pid=$!
	for _ in $(seq 300); do [ -S "$d/fpm.sock" ] && break; sleep 0.1; done
	if [ -S "$d/fpm.sock" ]; then
		out=$(SCRIPT_FILENAME="$d/copy.php" REQUEST_METHOD=GET timeout 60 cgi-fcgi -bind -connect "$d/fpm.sock" |
			php -r '$r = stream_get_contents(STDIN); $p = strpos($r, "\r\n\r\n");
				echo $p === false ? "no headers" : hash("sha256", substr($r, $p + 4));')
		[ "$out" = "$(sha256sum <"$d/src.bin" | cut -d' ' -f1)" ] || { echo "the body is not the file ($out)"; ok=0; }
		# all of it on the fastcgi path, but for a first byte that may settle the headers
		# through the output layer and the tail that stock's last write leaves in the
		# output buffer (Debian's php.ini: output_buffering = 4096)
		read -r returned fastcgi buffered version <"$d/result" 2>/dev/null
		[ "${returned:-}" = 5000011 ] && [ "${buffered:-x}" -ge 0 ] 2>/dev/null &&
			[ $((${fastcgi:-0} + buffered)) -ge 5000010 ] && [ $((${fastcgi:-0} + buffered)) -le 5000011 ] &&
			[ "${fastcgi:-0}" -ge 4000000 ] && [ -n "${version:-}" ] ||
			{ echo "the script reported: $(cat "$d/result" 2>/dev/null)"; ok=0; }
	else
		echo "php-fpm did not start"
		ok=0
	fi
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	[ "$ok" = 1 ] || cat "$d/fpm.out" "$d/fpm.log" 2>/dev/null
	[ "$ok" = 1 ]
}

# Both, after a check that the module is on the list of each.
inst_loaded_and_copies() {
	inst_check "php -m lists fastcopy" sh -c 'php -m | grep -qx fastcopy'
	inst_check "php-fpm -m lists fastcopy" sh -c "'$inst_fpm' -m | grep -qx fastcopy"
	inst_check "the CLI copies a file through fastcopy_stream()" inst_cli_copies
	inst_check "PHP-FPM sends a file through fastcopy_stream() on the fastcgi path" inst_fpm_copies
}

# A copy of the checkout's tracked files, as a fresh clone has them (no build output).
inst_copy_checkout() {
	mkdir -p "$1" && git ls-files -z | tar --null -T - -cf - | tar -x -C "$1"
}

# Whatever a failed run left behind goes, so later tests see stock PHP (the end
# check has already counted it as a failure); an installation that was there before
# the run (inst_begin refused to start) is not this run's to remove.
inst_owned=0
inst_cleanup() {
	if [ "$inst_owned" = 1 ]; then
		if [ -f "$inst_etc/mods-available/fastcopy.ini" ]; then
			phpdismod fastcopy 2>/dev/null
			rm -f "$inst_etc/mods-available/fastcopy.ini"
		fi
		! pecl list 2>/dev/null | grep -qi '^fastcopy ' || pecl uninstall fastcopy >/dev/null 2>&1
		rm -f "$inst_ext_dir/fastcopy.so"
	fi
	rm -rf "$inst_tmp"
}
