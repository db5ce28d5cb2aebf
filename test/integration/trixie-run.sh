#!/bin/sh
# The engine integration tests on Debian 13 (trixie), inside the root install-trixie.sh made
# (.cache/trixie), while the host stays Debian 12: the .deb (build/packages, made by make deb
# when missing) is installed there with dpkg, and vitest runs on trixie's nodejs the test files
# named on the command line against the installed executables (CLOUDCHECKS_DIST: the package's
# /usr/lib/nagios/plugins and /usr/bin/cloudchecks-sim), the engines being trixie's Icinga 2.14
# and Zabbix 7.0 with PostgreSQL 17. No init runs in the root: each test starts its own daemons.
# The repository is bind-mounted at its own path (and node_modules where it really lives), with
# /proc, /dev, /dev/pts and /sys; every mount is undone on exit.
#   test/integration/trixie-run.sh JSON-REPORT TEST-FILE...
# Exits 0 when the tests pass, 1 when one fails; 2 when the root is missing or unusable (the
# caller says the run was not made).
set -u
cd "$(dirname "$0")/../.." || exit 2
REPO=$(pwd -P)
ROOT=${CLOUDCHECKS_TRIXIE_ROOT:-$REPO/.cache/trixie}
report=$1
shift
[ -f "$ROOT/.cloudchecks-packages" ] || {
	echo "trixie-run: no Debian 13 root at $ROOT (make integration-deps in CI, or CLOUDCHECKS_TRIXIE=1)"
	exit 2
}
[ "$(id -u)" = "0" ] || {
	echo "trixie-run: chroot needs root"
	exit 2
}

mounted=""
undo() {
	[ -n "$mounted" ] && chroot "$ROOT" dpkg --purge cloudchecks >/dev/null 2>&1
	for m in $mounted; do umount -l "$m" 2>/dev/null; done
	mounted=""
}
trap undo EXIT
trap 'undo; exit 1' INT TERM
bind() { # bind SOURCE: the same path inside the root
	mkdir -p "$ROOT$1" && mount --bind "$1" "$ROOT$1" && mounted="$ROOT$1 $mounted"
}
mount -t proc proc "$ROOT/proc" && mounted="$ROOT/proc $mounted"
mount -t sysfs sysfs "$ROOT/sys" && mounted="$ROOT/sys $mounted"
bind /dev
bind /dev/pts
bind "$REPO"
modules=$(readlink -f node_modules)
case "$modules" in "$REPO"/*) ;; *) bind "$modules" ;; esac
# The cluster tests' fixtures and the tests' temporary files stay inside the root.
chmod 1777 "$ROOT/tmp"

version=$(node -p "require('./package.json').version")
deb="build/packages/cloudchecks_${version}-1_all.deb"
if [ ! -f "$deb" ] || [ -n "$(find dist -newer "$deb" -print -quit)" ]; then
	make -s deb >/dev/null 2>&1 || {
		echo "trixie-run: make deb failed (dpkg-dev, debhelper: make package-deps)"
		exit 2
	}
fi
chroot "$ROOT" dpkg -i "$REPO/$deb" >/dev/null || {
	echo "trixie-run: dpkg -i $deb failed in the Debian 13 root"
	exit 1
}
dist=/tmp/cloudchecks-deb
chroot "$ROOT" sh -c "rm -rf $dist && mkdir $dist && ln -s /usr/lib/nagios/plugins/check_* /usr/bin/cloudchecks-sim $dist/"
echo "trixie-run: cloudchecks $(chroot "$ROOT" dpkg-query -W -f '${Version}' cloudchecks) installed; Node.js $(chroot "$ROOT" node --version), Icinga 2 $(chroot "$ROOT" dpkg-query -W -f '${Version}' icinga2-bin), Zabbix $(chroot "$ROOT" dpkg-query -W -f '${Version}' zabbix-server-pgsql), PostgreSQL $(chroot "$ROOT" dpkg-query -W -f '${Version}' postgresql)"
# --configLoader runner: no require(esm) needed from the Node.js that runs vitest.
chroot "$ROOT" env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/root LANG=C.UTF-8 CI="${CI:-}" CLOUDCHECKS_ZABBIX_FLEET="${CLOUDCHECKS_ZABBIX_FLEET:-}" CLOUDCHECKS_ZABBIX_OUTAGE="${CLOUDCHECKS_ZABBIX_OUTAGE:-}" CLOUDCHECKS_SKIP_LOG="${CLOUDCHECKS_SKIP_LOG:-}" \
	CLOUDCHECKS_DIST=$dist CLOUDCHECKS_EXPECT_DEBIAN=13 sh -c 'cd "$1" && shift && exec node node_modules/vitest/vitest.mjs run --configLoader runner "$@"' \
	sh "$REPO" --reporter=default --reporter=json --outputFile.json="$report" "$@"
