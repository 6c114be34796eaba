# Debian's source package of PHP, for scripts that need PHP's sources. Sourced, not
# run (tests/php-src/run.sh, .ci/sanitized):
#
#   php_source_deb_src MM         make sure apt knows php$MM's source package (root):
#                                 8.2 from Debian 12 (bookworm), 8.4 from Debian 13 (trixie)
#   php_source_download MM DIR [VERSION]
#                                 download php$MM's source package into DIR, unpacked
#                                 by neither: VERSION first if given, then every
#                                 published version; prints the version it got
#   php_source_from_pool MM VERSION SHA256 DIR
#                                 download php$MM's VERSION straight from the archive's
#                                 pool, for when apt's index no longer lists it: the
#                                 .dsc must have that SHA-256, its files the checksums
#                                 it lists; prints VERSION
#   php_source_unpack DSC DIR     unpack it into DIR with Debian's patches applied
#
# Both return non-zero on failure and leave the message to the caller.

# apt-get source needs deb-src entries: add those of the Debian release that ships
# php$MM if none carries it. Only deb-src lines: no binary package comes from a newer
# release.
php_source_deb_src() {
	local mm="$1" suite srcinfo
	case "$mm" in
		8.2) suite=bookworm ;;
		8.4) suite=trixie ;;
		*) echo "php-source: no Debian release ships php$mm" >&2; return 1 ;;
	esac
	# (capture first: grep -q closing the pipe early would fail it under pipefail)
	srcinfo="$(apt-cache showsrc "php$mm" 2>/dev/null || true)"
	if ! grep -q '^Version:' <<< "$srcinfo"; then
		printf '%s\n' \
			"deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" \
			"deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security $suite-security main" \
			> "/etc/apt/sources.list.d/fastcopy-php-src-$suite.list"
		apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null || return 1
	fi
}

# The newest upload's orig tarball is sometimes missing from the mirror (a security
# upload, or a version apt lists from elsewhere): try the version asked for, then each
# published version, newest first, until one downloads.
php_source_download() {
	local mm="$1" dir="$2" want="${3:-}" v
	for v in $want $(apt-cache showsrc "php$mm" | awk '/^Version:/ {print $2}' | sort -rV | uniq); do
		if (cd "$dir" && DEBIAN_FRONTEND=noninteractive apt-get source --download-only -q "php$mm=$v" >/dev/null 2>&1) \
				&& ls "$dir"/php"$mm"_*.orig.tar.* >/dev/null 2>&1; then
			echo "$v"
			return 0
		fi
		rm -f "$dir"/*
	done
	return 1
}

# The mirror's index moves on (a newer upload is listed whose files are not served yet,
# the older one is dropped) while the pool keeps serving the files of the older one. Without
# apt's signed index, the trust comes from the .dsc's hash, pinned by the caller, and the
# .dsc's own checksums of the other files.
php_source_from_pool() {
	local mm="$1" version="$2" sha="$3" dir="$4" base dsc got name
	dsc="php${mm}_${version}.dsc"
	for base in http://deb.debian.org/debian/pool/main/p/php"$mm" \
			http://deb.debian.org/debian-security/pool/updates/main/p/php"$mm"; do
		curl -fsS --retry 3 -o "$dir/$dsc" "$base/${dsc//\~/%7e}" 2>/dev/null || continue
		got="$(sha256sum < "$dir/$dsc" | cut -d' ' -f1)"
		if [ "$got" != "$sha" ]; then
			echo "php-source: $base/$dsc has SHA-256 $got, not $sha" >&2
			rm -f "$dir/$dsc"
			return 1
		fi
		while read -r got _ name; do
			curl -fsS --retry 3 -o "$dir/$name" "$base/${name//\~/%7e}" || return 1
			[ "$(sha256sum < "$dir/$name" | cut -d' ' -f1)" = "$got" ] \
				|| { echo "php-source: $name does not match $dsc" >&2; return 1; }
		done < <(sed -n '/^Checksums-Sha256:/,/^[^ ]/{/^ /p}' "$dir/$dsc")
		echo "$version"
		return 0
	done
	return 1
}

# dpkg-source applies Debian's patches as it unpacks. (It cannot check the .dsc's
# signature without debian-keyring; apt checked the files' hashes.) On failure its
# output is printed.
php_source_unpack() {
	local dsc="$1" dir="$2" out
	out="$(dpkg-source -x "$dsc" "$dir" 2>&1)" || { printf '%s\n' "$out"; return 1; }
}
