#!/usr/bin/env bash
# Installs what the integration tests need; safe to run repeatedly.
#   - Debian: nginx, php8.2-fpm, php8.2-cgi (fastcgi_guard.phpt), valgrind
#     (fastcgi_valgrind.phpt, apache_valgrind.phpt), apache2,
#     libapache2-mod-php8.2, apache2-dev and strace (the apache_*.phpt tests),
#     xfsprogs and btrfs-progs (tests/uploads/fpm_filesystems.phpt), quota
#     (tests/uploads/fpm_body_file_usrquota.phpt), lighttpd, caddy
#     and haproxy (frontends*.phpt), curl, and the extensions sabre/dav and
#     sabre/http declare: php8.2-curl, php8.2-mbstring, php8.2-xml (services
#     apt may start are stopped again)
#   - two Composer projects under tests/integration/.deps (gitignored):
#       dav/     sabre/dav 4.7.0, sabre/http 5.1.12, icewind/streams 0.7.7 (what
#                Nextcloud ships) and symfony/http-foundation
#       http7/   sabre/http 7.1.0 (it cannot share a project with 5.1.12)
#     sabre and icewind come from a path repository on the shared folder of
#     real packages (FCINT_PACKAGES_DIR, default <repo>/../shared/php-packages, else
#     /work/shared/php-packages);
#     psr/log and Symfony from the Composer registry.
# Outside CI a missing package folder is reported and the tests needing it
# skip; under CI=true it is a failure.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
deps="${FCINT_DEPS_DIR:-$here/.deps}"
export DEBIAN_FRONTEND=noninteractive

need_apt=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need_apt+=(nginx)
command -v php-fpm8.2 >/dev/null 2>&1 || [ -x /usr/sbin/php-fpm8.2 ] || need_apt+=(php8.2-fpm)
command -v php-cgi8.2 >/dev/null 2>&1 || need_apt+=(php8.2-cgi)
command -v curl >/dev/null 2>&1 || need_apt+=(curl)
command -v valgrind >/dev/null 2>&1 || need_apt+=(valgrind)
# The apache path's tests: Apache 2.4 prefork with Debian's mod_php, its headers
# (configure compares the path's mirror of Apache's structures with them), strace
# (apache_config.phpt counts the child's sendfile calls), openssl (mod_ssl's
# throwaway certificate).
[ -x /usr/sbin/apache2 ] || need_apt+=(apache2)
[ -f /usr/lib/apache2/modules/libphp8.2.so ] || need_apt+=(libapache2-mod-php8.2)
command -v apxs2 >/dev/null 2>&1 || need_apt+=(apache2-dev)
command -v strace >/dev/null 2>&1 || need_apt+=(strace)
command -v openssl >/dev/null 2>&1 || need_apt+=(openssl)
# tests/uploads/fpm_filesystems.phpt: XFS and btrfs loop mounts (mkfs.xfs and xfs_io,
# mkfs.btrfs; filefrag is e2fsprogs')
command -v mkfs.xfs >/dev/null 2>&1 || [ -x /usr/sbin/mkfs.xfs ] || need_apt+=(xfsprogs)
command -v mkfs.btrfs >/dev/null 2>&1 || [ -x /usr/sbin/mkfs.btrfs ] || need_apt+=(btrfs-progs)
# tests/uploads/fpm_body_file_usrquota.phpt: root's quota on an ext4 loop mount (setquota, quotaon)
command -v setquota >/dev/null 2>&1 || [ -x /usr/sbin/setquota ] || need_apt+=(quota)
# frontends.phpt: other web servers in front of PHP-FPM (Apache's mod_proxy_fcgi
# comes with apache2).
[ -x /usr/sbin/lighttpd ] || need_apt+=(lighttpd)
[ -x /usr/bin/caddy ] || need_apt+=(caddy)
[ -x /usr/sbin/haproxy ] || need_apt+=(haproxy)
# Composer installs the PHP libraries below (Debian's package on a fresh machine).
command -v composer >/dev/null 2>&1 || need_apt+=(composer)
# FPM runs with -n and loads these by name (libs.inc: fclib_ini()).
ext_dir="$(php -n -r 'echo PHP_EXTENSION_DIR;')"
for ext in curl mbstring xml; do
    [ -f "$ext_dir/$ext.so" ] || need_apt+=("php8.2-$ext")
done

stop_service() {
    # apt may start the distro service (port 80 / the system pool); we never use it.
    local svc="$1"
    if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
        systemctl stop "$svc" >/dev/null 2>&1 || true
        systemctl disable "$svc" >/dev/null 2>&1 || true
    elif command -v service >/dev/null 2>&1; then
        service "$svc" stop >/dev/null 2>&1 || true
    fi
}

if [ "${#need_apt[@]}" -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "setup.sh: need root to install: ${need_apt[*]}" >&2
        exit 1
    fi
    echo "setup.sh: apt-get install ${need_apt[*]}"
    apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null
    apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${need_apt[@]}" >/dev/null
    stop_service nginx
    stop_service php8.2-fpm
    stop_service apache2
    stop_service lighttpd
    stop_service caddy
    stop_service haproxy
fi

if ! command -v composer >/dev/null 2>&1; then
    echo "setup.sh: composer not found" >&2
    exit 1
fi

repo="$(cd "$here/../.." && pwd)"
# The workspace keeps them in shared/ beside the clone; a clone made elsewhere (CI
# clones into a fresh directory) finds them in the workspace's usual place.
packages="${FCINT_PACKAGES_DIR:-}"
if [ -z "$packages" ]; then
    for p in "$repo/../shared/php-packages" "$repo/../../shared/php-packages" /work/shared/php-packages; do
        if [ -d "$p" ]; then
            packages=$p
            break
        fi
    done
    packages="${packages:-$repo/../shared/php-packages}"
fi
if [ ! -d "$packages" ]; then
    if [ "${CI:-}" = true ]; then
        echo "setup.sh: $packages not found (the real sabre and icewind packages; FCINT_PACKAGES_DIR overrides)" >&2
        exit 1
    fi
    echo "setup.sh: $packages not found; the tests that need sabre or icewind will skip"
    exit 0
fi
packages="$(cd "$packages" && pwd)"

# Writes one project's composer.json and installs it when the file changed.
#   install_project <dir> <package:version>...
install_project() {
    local dir="$1" json
    shift
    mkdir -p "$dir"
    json="$(php -n -r '
        $req = [];
        foreach (array_slice($argv, 2) as $spec) { [$n, $v] = explode(":", $spec, 2); $req[$n] = $v; }
        echo json_encode(["name" => "fastcopy/integration-deps", "require" => $req,
            "repositories" => [["type" => "path", "url" => $argv[1] . "/*", "options" => ["symlink" => false]]],
            "config" => ["lock" => false, "platform-check" => false]], JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES), "\n";
    ' -- "$packages" "$@")"
    if [ -f "$dir/vendor/autoload.php" ] && [ -f "$dir/composer.json" ] && [ "$(cat "$dir/composer.json")" = "$json" ]; then
        echo "setup.sh: already installed in $dir"
    else
        printf '%s\n' "$json" > "$dir/composer.json"
        rm -rf "$dir/vendor"
        (cd "$dir" && COMPOSER_ALLOW_SUPERUSER=1 timeout 600 composer update --no-interaction --no-progress --no-dev --quiet)
        echo "setup.sh: installed in $dir"
    fi
    # Exactly the versions asked for, or the tests would claim what they did not test.
    local spec name want got
    for spec in "$@"; do
        name="${spec%%:*}" want="${spec#*:}"
        case "$want" in [0-9]*) ;; *) continue ;; esac
        got="$(php -n -r '$j = json_decode((string) @file_get_contents($argv[1]), true); echo $j["version"] ?? "";' \
            -- "$dir/vendor/$name/composer.json")"
        if [ "$got" != "$want" ]; then
            echo "setup.sh: $name in $dir is '$got', want $want" >&2
            exit 1
        fi
    done
    (cd "$dir" && COMPOSER_ALLOW_SUPERUSER=1 composer show --no-interaction 2>/dev/null | awk '{print "setup.sh:   " $1 " " $2}') || true
}

install_project "$deps/dav" sabre/dav:4.7.0 sabre/http:5.1.12 icewind/streams:0.7.7 "symfony/http-foundation:>=6.4"
install_project "$deps/http7" sabre/http:7.1.0
# Apache's child runs as www-data (the apache tests), and some archives (psr/log)
# unpack their files 0600.
chmod -R a+rX "$deps"
