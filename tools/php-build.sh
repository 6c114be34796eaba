# Building PHP from Debian's source package (Debian's patches applied) into a prefix
# of its own, kept between runs. Sourced, not run (.ci/sanitized, .ci/php84):
#
#   php_build MM PREFIX CONFIGURE...
#       builds php$MM with `./configure --prefix=PREFIX CONFIGURE...` and installs it
#       into PREFIX, unless PREFIX already holds a build made here with the same
#       configure line and compiler. Returns non-zero after printing what failed.
#       The source package it built from is kept in PREFIX/share/fastcopy-php-source.
#
#   php_build_source MM PREFIX DIR
#       prints the path of a source tree of the PHP in PREFIX, for its own tests:
#       PHP_SRC, or the tree or source package php_build kept (unpacked into DIR), or,
#       for a build that kept neither, a fresh download unpacked into DIR.
#
# env: PHP_SRC            a php$MM tree with Debian's patches applied to build from
#                         (default: one under /work/src, else `apt-get source`)
#      PHP_BUILD_FETCH=1  `apt-get source` even if /work/src has a tree
#      PHP_BUILD_VERSION  the Debian version of php$MM to download first
#      PHP_BUILD_DSC_SHA256  that version's .dsc SHA-256: with it, the version is taken
#                         from the archive's pool when apt's index does not list it

. "$(dirname "${BASH_SOURCE[0]}")/php-source.sh"

php_build() {
	local mm="$1" prefix="$2"
	shift 2
	local configure=(--prefix="$prefix" "$@")
	local stamp="$prefix/.fastcopy-configure"
	local want="${configure[*]} (gcc $(gcc -dumpfullversion))"
	if [ -x "$prefix/bin/php" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
		echo "already built in $prefix"
		return 0
	fi
	# The prefix is replaced: only if this function made it, or it is empty.
	if [ -d "$prefix" ] && [ ! -f "$stamp" ] && [ -n "$(ls -A "$prefix")" ]; then
		echo "php-build: $prefix is not empty and was not built here: choose another prefix" >&2
		return 1
	fi
	local t0 build src="${PHP_SRC:-}" d version kept
	t0=$(date +%s)
	build="$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-php$mm-build.XXXXXX")"
	# (a subshell: its cd, its exit on failure and its clean-up stay its own)
	(
		trap 'rm -rf "$build"' EXIT
		fail() { echo "php-build: $*" >&2; exit 1; }
		if [ -z "$src" ] && [ -z "${PHP_BUILD_FETCH:-}" ]; then
			for d in /work/src/php"$mm"-*; do
				# a tree dpkg-source unpacked: the patches are applied
				[ -f "$d/.pc/applied-patches" ] && [ -f "$d/configure.ac" ] && src=$d && break
			done
		fi
		if [ -n "$src" ]; then
			echo "source: $src"
			mkdir "$build/src"
			cp -a "$src"/. "$build/src/"
		else
			mkdir "$build/dl"
			version="$(php_build_fetch "$mm" "$build/dl")" || exit 1
			echo "source: php$mm $version from Debian's archive"
			php_source_unpack "$build"/dl/php"$mm"_*.dsc "$build/src" || fail "dpkg-source -x failed"
		fi
		cd "$build/src"
		# As Debian's rules do: the patches change configure.ac and the build macros.
		./buildconf --force > "$build/buildconf.log" 2>&1 || { cat "$build/buildconf.log"; fail "buildconf failed"; }
		nice -n 10 ./configure "${configure[@]}" > "$build/configure.log" 2>&1 \
			|| { tail -n 30 "$build/configure.log"; fail "configure failed"; }
		nice -n 10 make -j"$(nproc)" > "$build/make.log" 2>&1 || { tail -n 40 "$build/make.log"; fail "make failed"; }
		rm -rf "$prefix"
		make install > "$build/install.log" 2>&1 || { tail -n 20 "$build/install.log"; fail "make install failed"; }
		# Debian's phpize takes libtool's and pkg-config's macros from $prefix/share/aclocal
		# (/usr/share/aclocal for the packaged PHP).
		mkdir -p "$prefix/share/aclocal"
		for m in pkg.m4 libtool.m4 ltoptions.m4 ltsugar.m4 ltversion.m4 lt~obsolete.m4; do
			ln -sf "/usr/share/aclocal/$m" "$prefix/share/aclocal/$m"
		done
		kept="$prefix/share/fastcopy-php-source"
		mkdir -p "$kept"
		if [ -n "$src" ]; then
			echo "$src" > "$kept/tree"
		else
			cp "$build"/dl/* "$kept/"
		fi
		echo "$want" > "$stamp"
	) || return 1
	echo "built in $(( $(date +%s) - t0 ))s"
}

# php$MM's source package into DIR (downloaded only); prints its Debian version.
php_build_fetch() {
	local mm="$1" dir="$2" version
	php_source_deb_src "$mm" || { echo "php-build: apt-get update (deb-src) failed" >&2; return 1; }
	if [ -n "${PHP_BUILD_VERSION:-}" ] && [ -n "${PHP_BUILD_DSC_SHA256:-}" ]; then
		# that version and no other: apt's when it lists it, else the pool's
		version=$PHP_BUILD_VERSION
		(cd "$dir" && apt-get source --download-only -q "php$mm=$version" >/dev/null 2>&1) \
			|| { rm -f "$dir"/*; php_source_from_pool "$mm" "$version" "$PHP_BUILD_DSC_SHA256" "$dir" >/dev/null; } \
			|| { echo "php-build: php$mm $version: neither apt-get source nor the archive's pool gave it" >&2; return 1; }
	else
		version="$(php_source_download "$mm" "$dir" "${PHP_BUILD_VERSION:-}")" \
			|| { echo "php-build: apt-get source php$mm: no version downloaded" >&2; return 1; }
	fi
	echo "$version"
}

php_build_source() {
	local mm="$1" prefix="$2" dir="$3" kept="$2/share/fastcopy-php-source"
	if [ -n "${PHP_SRC:-}" ]; then
		echo "$PHP_SRC"
		return 0
	fi
	if [ -f "$kept/tree" ] && [ -d "$(cat "$kept/tree")" ]; then
		cat "$kept/tree"
		return 0
	fi
	mkdir -p "$dir/dl"
	if ls "$kept"/php"$mm"_*.dsc >/dev/null 2>&1; then
		cp "$kept"/* "$dir/dl/"
	else
		php_build_fetch "$mm" "$dir/dl" >/dev/null || return 1
	fi
	php_source_unpack "$dir"/dl/php"$mm"_*.dsc "$dir/src" >&2 || { echo "php-build: dpkg-source -x failed" >&2; return 1; }
	echo "$dir/src"
}

#   fastcopy_build_copy DIR [CONFIGURE...]
#       builds fastcopy, with the phpize and php-config first in PATH, in DIR: a copy
#       of the repository's tracked files as they are in the working tree (uncommitted
#       edits included), so the build in modules/ is left alone. CFLAGS and LDFLAGS
#       from the environment reach configure. --enable-fastcopy-dev is always on.
fastcopy_build_copy() {
	local dir="$1"
	shift
	git ls-files -z | tar --null -T - --ignore-failed-read -cf - | tar -xf - -C "$dir"
	(
		cd "$dir"
		phpize > phpize.out 2>&1 || { cat phpize.out; echo "fastcopy: phpize failed" >&2; exit 1; }
		./configure --enable-fastcopy --enable-fastcopy-dev "$@" > configure.out 2>&1 \
			|| { tail -n 30 configure.out; echo "fastcopy: configure failed" >&2; exit 1; }
		nice -n 10 make -j"$(nproc)" > make.out 2>&1 \
			|| { cat make.out; echo "fastcopy: make failed (a warning is an error here)" >&2; exit 1; }
	)
}
