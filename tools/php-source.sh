# Debian's source package of PHP, for scripts that need PHP's sources. Sourced, not
# run (tests/php-src/run.sh, .ci/sanitized):
#
#   php_source_deb_src MM         make sure apt knows php$MM's source package (root)
#   php_source_download MM DIR    download php$MM's source package into DIR, unpacked
#                                 by neither; prints the version it got
#
# Both return non-zero on failure and leave the message to the caller.

# apt-get source needs deb-src entries: add Debian's own if none carries php$MM.
php_source_deb_src() {
	local mm="$1" srcinfo
	# (capture first: grep -q closing the pipe early would fail it under pipefail)
	srcinfo="$(apt-cache showsrc "php$mm" 2>/dev/null || true)"
	if ! grep -q '^Version:' <<< "$srcinfo"; then
		printf '%s\n' \
			"deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main" \
			"deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security bookworm-security main" \
			> /etc/apt/sources.list.d/fastcopy-php-src.list
		apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null || return 1
	fi
}

# The newest security upload's orig tarball is sometimes missing from the mirror:
# try each published version, newest first, until one downloads.
php_source_download() {
	local mm="$1" dir="$2" v
	for v in $(apt-cache showsrc "php$mm" | awk '/^Version:/ {print $2}' | sort -rV | uniq); do
		if (cd "$dir" && DEBIAN_FRONTEND=noninteractive apt-get source --download-only -q "php$mm=$v" >/dev/null 2>&1) \
				&& ls "$dir"/php"$mm"_*.orig.tar.* >/dev/null 2>&1; then
			echo "$v"
			return 0
		fi
		rm -f "$dir"/*
	done
	return 1
}
