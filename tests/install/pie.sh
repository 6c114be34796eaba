#!/usr/bin/env bash
# Installs fastcopy with PIE (https://github.com/php/pie) as README says, twice: by
# `pie install` in a copy of the checkout, and by `pie install 'fastcopy/fastcopy:*@dev'`
# from a path repository with --enable-fastcopy-dev passed through to configure.
# Each time the installed extension must load in the CLI and in PHP-FPM and copy a
# file; `pie uninstall` plus README's two cleanup commands must leave the machine as
# it was. PIE itself comes from ../shared/php-packages (path repositories beside the
# clone; the rest of its dependencies from the Composer registry), into a temp dir.
# Root, as `make install` and phpenmod write system folders. Ends with one line
# "N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/install/lib.sh
trap inst_cleanup EXIT

# Beside the clone (as CI lays it), else the workspace's usual place, as
# tests/integration/setup.sh looks; FASTCOPY_SHARED names another shared/.
packages=
for p in ${FASTCOPY_SHARED:+"$FASTCOPY_SHARED/php-packages"} ../shared/php-packages /work/shared/php-packages; do
	if [ -d "$p/pie-1.3.1" ]; then
		packages=$(cd "$p" && pwd)
		break
	fi
done
[ -n "$packages" ] ||
	{ inst_fail "no shared/php-packages beside the clone (PIE's path repositories)"; inst_finish; exit; }
inst_begin || { inst_fail "a machine without fastcopy to start from"; inst_finish; exit; }

# PIE, as a Composer project of its own
pie_project=$inst_tmp/pie
mkdir -p "$pie_project"
cat >"$pie_project/composer.json" <<JSON
{
    "repositories": [{"type": "path", "url": "$packages/*", "options": {"symlink": false}}],
    "require": {"php/pie": "1.3.1"},
    "config": {"allow-plugins": true}
}
JSON
inst_check "Composer installs PIE 1.3.1 from the path repositories" \
	composer --working-dir="$pie_project" install --no-interaction --no-progress --quiet
pie=$pie_project/vendor/bin/pie
# PIE's own state (its Composer project per PHP) in the temp dir, not in $HOME.
export PIE_WORKING_DIRECTORY=$inst_tmp/pie-home
[ -x "$pie" ] || { inst_finish; exit; }

checkout=$inst_tmp/fastcopy
inst_copy_checkout "$checkout"

# 1. In the checkout, as a developer would.
inst_check "pie install in a copy of the checkout" \
	sh -c "cd '$checkout' && '$pie' install --no-interaction >'$inst_tmp/pie-install.log' 2>&1" ||
	cat "$inst_tmp/pie-install.log"
inst_check "enabled through $inst_etc/mods-available/fastcopy.ini (priority 20) and phpenmod" \
	sh -c "grep -qx 'extension=fastcopy' '$inst_etc/mods-available/fastcopy.ini' && [ -L '$inst_etc/cli/conf.d/20-fastcopy.ini' ] && [ -L '$inst_etc/fpm/conf.d/20-fastcopy.ini' ]"
inst_loaded_and_copies

# What `pie uninstall` does: the .so goes, the ini line is commented out, the file
# and its conf.d links stay; README's two commands remove those.
pie_uninstall() {
	"$pie" uninstall --no-interaction fastcopy/fastcopy >"$inst_tmp/pie-uninstall.log" 2>&1 ||
		{ cat "$inst_tmp/pie-uninstall.log"; return 1; }
	[ ! -e "$inst_ext_dir/fastcopy.so" ] && ! php -m | grep -qx fastcopy &&
		grep -q '^; *extension=fastcopy' "$inst_etc/mods-available/fastcopy.ini" &&
		[ -L "$inst_etc/cli/conf.d/20-fastcopy.ini" ]
}
inst_check "pie uninstall removes the .so and comments the ini line out, leaving the file and its links" pie_uninstall
inst_check "phpdismod fastcopy and rm mods-available/fastcopy.ini remove the rest" \
	sh -c "phpdismod fastcopy && rm '$inst_etc/mods-available/fastcopy.ini'"

# 2. From a path repository (a VCS one works the same), untagged, hence *@dev, in a
# second copy; the configure option composer.json declares goes through to configure
# (PIE 1.3.1 passes configure options only with a named package, not to the
# argument-less install in a checkout above).
checkout2=$inst_tmp/fastcopy-repo
inst_copy_checkout "$checkout2"
inst_check "pie repository:add path + pie install 'fastcopy/fastcopy:*@dev' --enable-fastcopy-dev" \
	sh -c "'$pie' repository:add --no-interaction path '$checkout2' >'$inst_tmp/pie-repo.log' 2>&1 &&
		'$pie' install --no-interaction -v 'fastcopy/fastcopy:*@dev' --enable-fastcopy-dev >>'$inst_tmp/pie-repo.log' 2>&1" ||
	cat "$inst_tmp/pie-repo.log"
inst_check "configure ran with --enable-fastcopy-dev" \
	grep -q -- "^Configure complete with options: .*--enable-fastcopy-dev" "$inst_tmp/pie-repo.log"
inst_loaded_and_copies
inst_check "pie uninstall removes the .so and comments the ini line out, leaving the file and its links" pie_uninstall
inst_check "phpdismod fastcopy and rm mods-available/fastcopy.ini remove the rest" \
	sh -c "phpdismod fastcopy && rm '$inst_etc/mods-available/fastcopy.ini'"

inst_end_clean
inst_finish
