#!/bin/sh
# `make integration-deps`: makes sure the monitoring engines that the integration tests run
# (Icinga 2, Nagios 4, from Debian/Ubuntu packages) are installed.
# - Present: nothing to do.
# - Absent, in CI (CI=true) or when asked (CLOUDCHECKS_INSTALL_DEPS=1): apt-get installs them,
#   as root or through passwordless sudo, without starting any service.
# - Absent otherwise, or when they cannot be installed: a loud SKIP message, exit 0. The tests
#   then skip with a message of their own; they never pass silently.
# Never fails the build: a machine without apt-get can still run every other test.
set -u

have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }

skip() {
	echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
	echo "SKIP: integration-deps: $1"
	echo "      The Icinga 2 / Nagios integration tests will be SKIPPED, not passed."
	echo "      To run them: apt-get install --no-install-recommends icinga2-bin icinga2-common nagios4-core"
	echo "      (or: sudo make integration-deps CLOUDCHECKS_INSTALL_DEPS=1)"
	echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
	exit 0
}

missing=""
have icinga2 || missing="$missing icinga2-bin icinga2-common"
have nagios4 || missing="$missing nagios4-core"
if [ -z "$missing" ]; then
	echo "integration-deps: icinga2 and nagios4 are installed"
	exit 0
fi

if [ "${CI:-}" != "true" ] && [ "${CLOUDCHECKS_INSTALL_DEPS:-}" != "1" ]; then
	skip "missing packages:$missing (not installing system packages outside CI without CLOUDCHECKS_INSTALL_DEPS=1)"
fi
command -v apt-get >/dev/null 2>&1 || skip "missing packages:$missing and no apt-get on this machine"

sudo=""
if [ "$(id -u)" != "0" ]; then
	if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		sudo="sudo -n"
	else
		skip "missing packages:$missing; installing them needs root (or passwordless sudo)"
	fi
fi

# The packages must not start daemons on the test machine: a policy-rc.d that forbids it,
# for the length of the installation, unless the machine has one already.
policy=/usr/sbin/policy-rc.d
own_policy=""
if [ ! -e "$policy" ]; then
	$sudo sh -c "printf '#!/bin/sh\nexit 101\n' > $policy && chmod 0755 $policy" && own_policy=1
fi

echo "integration-deps: installing$missing"
status=0
$sudo apt-get update -qq || status=$?
if [ "$status" = 0 ]; then
	# shellcheck disable=SC2086 # $missing is a list of package names
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing || status=$?
fi
[ -n "$own_policy" ] && $sudo rm -f "$policy"
[ "$status" = 0 ] || skip "apt-get failed (exit $status) installing:$missing"

have icinga2 && have nagios4 || skip "installed$missing but icinga2/nagios4 are still not found"
echo "integration-deps: installed$missing"
