#!/bin/sh
# `make integration-deps`, Debian 13 part: a Debian 13 (trixie) root under .cache/trixie, made
# with debootstrap from Debian's archive, holding trixie's engines (Icinga 2.14, Zabbix 7.0 LTS
# with PostgreSQL 17) and its nodejs, so that scripts/run-tests can run the Icinga 2 and Zabbix
# integration tests inside it (test/integration/trixie-run.sh) while the host stays Debian 12.
# - Present and complete (the stamp names this script's package list): nothing to do (a second
#   run takes a second).
# - Absent, in CI (CI=true) or when asked (CLOUDCHECKS_INSTALL_DEPS=1 or CLOUDCHECKS_TRIXIE=1),
#   as root: debootstrap (installed on the host when missing) makes the root, apt-get installs
#   the packages inside it without starting any service (no init runs there: the tests start
#   their own PostgreSQL cluster, Zabbix server and Icinga 2).
# - Otherwise, or when that fails: a loud SKIP message, exit 0; the Debian 13 run is then not
#   made, and scripts/run-tests says so. Never fails the build.
set -u

. "$(dirname "$0")/apt-install.sh"
skip_label="integration-deps (Debian 13 root)"
skip_tests="The Icinga 2 / Zabbix integration tests on Debian 13 (trixie) will be SKIPPED, not passed."
skip_them="them"
skip_run="CLOUDCHECKS_TRIXIE=1 sh test/integration/install-trixie.sh (as root)"

cd "$(dirname "$0")/../.." || exit 0
ROOT=${CLOUDCHECKS_TRIXIE_ROOT:-$PWD/.cache/trixie}
MIRROR=${CLOUDCHECKS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# php8.4-cgi satisfies php8.4's need for a SAPI without apache2 (as on Debian 12 with 8.2).
PACKAGES="nodejs openssl ca-certificates icinga2-bin icinga2-common zabbix-server-pgsql zabbix-frontend-php php8.4-pgsql php8.4-cli php8.4-cgi postgresql"
STAMP="$ROOT/.cloudchecks-packages"

if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$PACKAGES" ]; then
	echo "integration-deps: the Debian 13 root $ROOT is ready ($(chroot "$ROOT" dpkg-query -W -f '${Version}' zabbix-server-pgsql 2>/dev/null | sed 's/^1://;s/[+-].*//') Zabbix)"
	exit 0
fi
if [ "${CI:-}" != "true" ] && [ "${CLOUDCHECKS_INSTALL_DEPS:-}" != "1" ] && [ "${CLOUDCHECKS_TRIXIE:-}" != "1" ]; then
	skip "no Debian 13 root at $ROOT (not making one outside CI without CLOUDCHECKS_TRIXIE=1 or CLOUDCHECKS_INSTALL_DEPS=1)"
fi
[ "$(id -u)" = "0" ] || skip "making a Debian 13 root needs root (debootstrap, chroot)"
if ! command -v debootstrap >/dev/null 2>&1 && [ ! -x /usr/sbin/debootstrap ]; then
	sudo=""
	apt_install debootstrap
fi
PATH="$PATH:/usr/sbin:/sbin"
export PATH

started=$(date +%s)
if [ ! -x "$ROOT/usr/bin/apt-get" ] || [ ! -f "$ROOT/.cloudchecks-debootstrapped" ]; then
	rm -rf "$ROOT"
	mkdir -p "$ROOT"
	echo "integration-deps: debootstrap trixie into $ROOT from $MIRROR"
	# In two stages, so that dpkg inside skips its fsyncs (a throw-away root: half the time) and
	# the documentation, before it configures anything.
	debootstrap --foreign --variant=minbase trixie "$ROOT" "$MIRROR" >"$ROOT.log" 2>&1 || {
		tail -5 "$ROOT.log"
		skip "debootstrap trixie failed (log: $ROOT.log)"
	}
	mkdir -p "$ROOT/etc/dpkg/dpkg.cfg.d"
	printf 'force-unsafe-io\npath-exclude=/usr/share/doc/*\npath-exclude=/usr/share/man/*\npath-exclude=/usr/share/locale/*\n' >"$ROOT/etc/dpkg/dpkg.cfg.d/cloudchecks-test"
	chroot "$ROOT" /debootstrap/debootstrap --second-stage >>"$ROOT.log" 2>&1 || {
		tail -5 "$ROOT.log"
		skip "debootstrap trixie (second stage) failed (log: $ROOT.log)"
	}
	touch "$ROOT/.cloudchecks-debootstrapped"
fi
# No daemon starts inside the root: no init runs there, and invoke-rc.d is told so.
printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
chmod 0755 "$ROOT/usr/sbin/policy-rc.d"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
mounted=""
for m in proc dev/pts; do
	if ! mountpoint -q "$ROOT/$m"; then
		case $m in proc) mount -t proc proc "$ROOT/proc" ;; dev/pts) mount -t devpts devpts "$ROOT/dev/pts" ;; esac && mounted="$ROOT/$m $mounted"
	fi
done
status=0
# shellcheck disable=SC2086 # a list of package names
chroot "$ROOT" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $PACKAGES" >>"$ROOT.log" 2>&1 || status=$?
for m in $mounted; do umount "$m"; done
if [ "$status" != 0 ]; then
	tail -5 "$ROOT.log"
	skip "apt-get install in the Debian 13 root failed (exit $status; log: $ROOT.log)"
fi
chroot "$ROOT" apt-get clean
echo "$PACKAGES" >"$STAMP"
echo "integration-deps: made the Debian 13 root $ROOT in $(($(date +%s) - started)) s: Zabbix $(chroot "$ROOT" dpkg-query -W -f '${Version}' zabbix-server-pgsql), Icinga 2 $(chroot "$ROOT" dpkg-query -W -f '${Version}' icinga2-bin), Node.js $(chroot "$ROOT" node --version)"
