#!/usr/bin/env bash
# Installs what the integration tests need; safe to run repeatedly.
#   - Debian: nginx, php8.2-fpm, curl (services apt may start are stopped again)
#   - Composer packages into tests/integration/.deps (gitignored)
# Packages the Packagist mirror does not carry are reported and skipped: the
# tests then use the stand-ins in shapes.inc that replay the same call sequence.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
deps="${FCINT_DEPS_DIR:-$here/.deps}"
export DEBIAN_FRONTEND=noninteractive

need_apt=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need_apt+=(nginx)
command -v php-fpm8.2 >/dev/null 2>&1 || [ -x /usr/sbin/php-fpm8.2 ] || need_apt+=(php8.2-fpm)
command -v curl >/dev/null 2>&1 || need_apt+=(curl)

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
fi

# Composer: one project dir we own. The mirror has only some packages, so ask
# about each one first and require only those it has.
if ! command -v composer >/dev/null 2>&1; then
    echo "setup.sh: composer not found" >&2
    exit 1
fi
mkdir -p "$deps"
wanted=(
    "symfony/http-foundation:>=6.4"
    "sabre/http:^5.1"
    "icewind/streams:>=0.7"
)
have=()
for spec in "${wanted[@]}"; do
    name="${spec%%:*}"
    if (cd "$deps" && timeout 120 composer show --available --no-interaction "$name" >/dev/null 2>&1); then
        have+=("$spec")
    else
        echo "setup.sh: $name not available from the Composer registry here; tests use the stand-in from shapes.inc"
    fi
done

# Write composer.json (keys sorted by the order above) and install if it changed.
json="$(php -n -r '
    $req = [];
    foreach (array_slice($argv, 1) as $spec) { [$n, $v] = explode(":", $spec, 2); $req[$n] = $v; }
    echo json_encode(["name" => "fastcopy/integration-deps", "require" => (object) $req,
        "config" => ["lock" => false, "platform-check" => false]], JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES), "\n";
' -- "${have[@]}")"
if [ -f "$deps/vendor/autoload.php" ] && [ -f "$deps/composer.json" ] && [ "$(cat "$deps/composer.json")" = "$json" ]; then
    echo "setup.sh: composer packages already installed in $deps"
else
    printf '%s\n' "$json" > "$deps/composer.json"
    (cd "$deps" && timeout 600 composer update --no-interaction --no-progress --no-dev --quiet)
    echo "setup.sh: composer packages installed in $deps"
fi
(cd "$deps" && composer show --no-interaction 2>/dev/null | awk '{print "setup.sh:   " $1 " " $2}') || true
