#!/bin/sh
# `make integration-deps`, Zabbix part: makes sure the Zabbix server, its frontend (for the
# JSON-RPC API, served by `php -S`) and PostgreSQL, which test/integration/zabbix.test.ts runs,
# are installed (Debian/Ubuntu packages: Debian 12 has Zabbix 6.0 LTS, which the host's run
# tests; Zabbix 7.0 LTS, Debian 13's, is tested inside the trixie root: install-trixie.sh).
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

. "$(dirname "$0")/apt-install.sh"
skip_label="integration-deps (Zabbix)"
skip_tests="The Zabbix integration test will be SKIPPED, not passed."
skip_them="it"
skip_run="apt-get install --no-install-recommends $PACKAGES"
apt_opts="-o DPkg::Lock::Timeout=300"

if have_all; then
	echo "integration-deps: zabbix_server, the Zabbix frontend, php-pgsql and PostgreSQL are installed"
	exit 0
fi

require_install_allowed "Zabbix server/frontend or PostgreSQL missing"
choose_sudo "installing the Zabbix packages needs root (or passwordless sudo)"
echo "integration-deps: installing $PACKAGES"
# shellcheck disable=SC2086 # a list of package names
apt_install $PACKAGES

have_all || skip "installed $PACKAGES but zabbix_server, /usr/share/zabbix/api_jsonrpc.php, php's pgsql module or initdb is still not found"
version=$(apt-cache policy zabbix-server-pgsql 2>/dev/null | sed -n 's/^ *Installed: //p')
case "$version" in
1:7.*) echo "integration-deps: installed Zabbix $version" ;;
*) echo "integration-deps: installed Zabbix $version (Zabbix 7.0 LTS runs in the Debian 13 root: install-trixie.sh)" ;;
esac
