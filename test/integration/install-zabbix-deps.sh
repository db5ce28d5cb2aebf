#!/bin/sh
# `make integration-deps`, Zabbix part: makes sure the Zabbix server, its frontend (for the
# JSON-RPC API, served by `php -S`) and PostgreSQL, which test/integration/zabbix.test.ts runs,
# are installed (Debian/Ubuntu packages: Debian 12 has Zabbix 6.0 LTS; 7.0 LTS is not in its
# archive, so the test runs 6.0).
# - Present: nothing to do.
# - Absent, in CI (CI=true) or when asked (CLOUDCHECKS_INSTALL_DEPS=1): apt-get installs them,
#   as root or through passwordless sudo, without starting any service (the test starts its
#   own PostgreSQL cluster and Zabbix server on 127.0.0.1).
# - Absent otherwise, or when they cannot be installed: a loud SKIP message, exit 0. The test
#   then skips with a message of its own; it never passes silently.
# Never fails the build.
set -u

PACKAGES="zabbix-server-pgsql zabbix-frontend-php php8.2-pgsql php8.2-cli php8.2-cgi postgresql"
# php8.2-cgi satisfies the php8.2 package's need for a SAPI, so that apt does not pull in
# apache2 (its first choice) with --no-install-recommends.

have_all() {
	{ command -v zabbix_server >/dev/null 2>&1 || [ -x /usr/sbin/zabbix_server ]; } &&
		[ -f /usr/share/zabbix/api_jsonrpc.php ] &&
		command -v php >/dev/null 2>&1 && php -m 2>/dev/null | grep -qx pgsql &&
		ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1
}

skip() {
	echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
	echo "SKIP: integration-deps (Zabbix): $1"
	echo "      The Zabbix integration test will be SKIPPED, not passed."
	echo "      To run it: apt-get install --no-install-recommends $PACKAGES"
	echo "      (or: sudo make integration-deps CLOUDCHECKS_INSTALL_DEPS=1)"
	echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
	exit 0
}

if have_all; then
	echo "integration-deps: zabbix_server, the Zabbix frontend, php-pgsql and PostgreSQL are installed"
	exit 0
fi

if [ "${CI:-}" != "true" ] && [ "${CLOUDCHECKS_INSTALL_DEPS:-}" != "1" ]; then
	skip "Zabbix server/frontend or PostgreSQL missing (not installing system packages outside CI without CLOUDCHECKS_INSTALL_DEPS=1)"
fi
command -v apt-get >/dev/null 2>&1 || skip "Zabbix server/frontend or PostgreSQL missing and no apt-get on this machine"

sudo=""
if [ "$(id -u)" != "0" ]; then
	if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		sudo="sudo -n"
	else
		skip "installing the Zabbix packages needs root (or passwordless sudo)"
	fi
fi

# The packages must not start daemons on the test machine: a policy-rc.d that forbids it,
# for the length of the installation, unless the machine has one already.
policy=/usr/sbin/policy-rc.d
own_policy=""
if [ ! -e "$policy" ]; then
	$sudo sh -c "printf '#!/bin/sh\nexit 101\n' > $policy && chmod 0755 $policy" && own_policy=1
fi

echo "integration-deps: installing $PACKAGES"
status=0
$sudo apt-get -o DPkg::Lock::Timeout=300 update -qq || status=$?
if [ "$status" = 0 ]; then
	# shellcheck disable=SC2086 # a list of package names
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends $PACKAGES || status=$?
fi
[ -n "$own_policy" ] && $sudo rm -f "$policy"
[ "$status" = 0 ] || skip "apt-get failed (exit $status) installing: $PACKAGES"

have_all || skip "installed $PACKAGES but zabbix_server, /usr/share/zabbix/api_jsonrpc.php, php's pgsql module or initdb is still not found"
version=$(apt-cache policy zabbix-server-pgsql 2>/dev/null | sed -n 's/^ *Installed: //p')
case "$version" in
1:7.*) echo "integration-deps: installed Zabbix $version" ;;
*) echo "integration-deps: installed Zabbix $version (Zabbix 7.0 LTS is not in this distribution's archive: the test runs this version)" ;;
esac
