#!/usr/bin/env bash
# Installs fastcopy with pecl as README says: `pecl package` builds the tarball from
# package.xml in a copy of the checkout, `pecl install` builds and installs it (and,
# as pecl always does on Debian, does not enable it), README's two commands enable it
# for every SAPI. The installed extension must then load in the CLI and in PHP-FPM
# and copy a file; README's uninstall commands must leave the machine as it was.
# FASTCOPY_APXS=no builds it as on a machine without apache2-dev. With
# FASTCOPY_PECL_SO=PATH, the installed fastcopy.so is kept there for later tests.
# Root, as pecl and phpenmod write system folders. Ends with one line
# "N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/install/lib.sh
trap inst_cleanup EXIT

inst_begin || { inst_fail "a machine without fastcopy to start from"; inst_finish; exit; }
command -v pecl >/dev/null || { inst_fail "pecl (Debian's php-pear) is installed"; inst_finish; exit; }

checkout=$inst_tmp/fastcopy
inst_copy_checkout "$checkout"
inst_check "pecl package builds the tarball from package.xml" \
	sh -c "cd '$checkout' && pecl package package.xml >'$inst_tmp/pecl-package.log' 2>&1 && ls fastcopy-*.tgz >/dev/null" ||
	cat "$inst_tmp/pecl-package.log"
# pecl asks for the configure options package.xml declares; Enter takes the defaults.
inst_check "pecl install of the tarball" \
	sh -c "cd '$checkout' && printf '\n' | FASTCOPY_APXS=no pecl install fastcopy-*.tgz >'$inst_tmp/pecl-install.log' 2>&1" ||
	cat "$inst_tmp/pecl-install.log"
inst_check "pecl put fastcopy.so in $inst_ext_dir and did not enable it" \
	sh -c "[ -f '$inst_ext_dir/fastcopy.so' ] && ! php -m | grep -qx fastcopy"

enable() {
	printf '; priority=20\nextension=fastcopy.so\n' >"$inst_etc/mods-available/fastcopy.ini" && phpenmod fastcopy
}
inst_check "mods-available/fastcopy.ini + phpenmod fastcopy enable it" enable
inst_loaded_and_copies
[ -z "${FASTCOPY_PECL_SO:-}" ] || cp "$inst_ext_dir/fastcopy.so" "$FASTCOPY_PECL_SO"

inst_check "phpdismod fastcopy, rm mods-available/fastcopy.ini, pecl uninstall fastcopy" \
	sh -c "phpdismod fastcopy && rm '$inst_etc/mods-available/fastcopy.ini' && pecl uninstall fastcopy >'$inst_tmp/pecl-uninstall.log' 2>&1" ||
	cat "$inst_tmp/pecl-uninstall.log"

inst_end_clean
inst_finish
