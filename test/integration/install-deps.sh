#!/bin/sh
# `make integration-deps`: makes sure the monitoring engines that the integration tests run
# (Icinga 2, Nagios 4, from Debian/Ubuntu packages) are installed, and graphite-carbon (the
# carbon-cache that the Icinga 2 test feeds, to read the metric paths Graphite stores).
# - Present: nothing to do.
# - Absent, in CI (CI=true) or when asked (CLOUDCHECKS_INSTALL_DEPS=1): apt-get installs them,
#   as root or through passwordless sudo, without starting any service.
# - Absent otherwise, or when they cannot be installed: a loud SKIP message, exit 0. The tests
#   then skip with a message of their own; they never pass silently.
# Never fails the build: a machine without apt-get can still run every other test.
set -u

. "$(dirname "$0")/apt-install.sh"
skip_label="integration-deps"
skip_tests="The Icinga 2 / Nagios integration tests will be SKIPPED, not passed."
skip_them="them"
skip_run="apt-get install --no-install-recommends icinga2-bin icinga2-common nagios4-core openssl graphite-carbon"

have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ]; }

missing=""
have icinga2 || missing="$missing icinga2-bin icinga2-common"
have nagios4 || missing="$missing nagios4-core"
have openssl || missing="$missing openssl"
# The stock plugins the Nagios tests run beside ours (check_dummy for the passive services'
# stale text, check_http for the vcd reachable layout): Debian's monitoring-plugins-basic.
[ -x /usr/lib/nagios/plugins/check_http ] && [ -x /usr/lib/nagios/plugins/check_dummy ] || missing="$missing monitoring-plugins-basic"
skip_run="$skip_run monitoring-plugins-basic"
# check_cluster_alerts' integration test runs a real Prometheus and Alertmanager (never their
# services: the test starts the binaries itself on 127.0.0.1).
have prometheus || missing="$missing prometheus"
have prometheus-alertmanager || missing="$missing prometheus-alertmanager"
skip_run="$skip_run prometheus prometheus-alertmanager"
have carbon-cache || missing="$missing graphite-carbon"
if [ -z "$missing" ]; then
	echo "integration-deps: icinga2, nagios4, openssl, carbon-cache, prometheus and prometheus-alertmanager are installed"
	exit 0
fi

require_install_allowed "missing packages:$missing"
choose_sudo "missing packages:$missing; installing them needs root (or passwordless sudo)"
echo "integration-deps: installing$missing"
# shellcheck disable=SC2086 # $missing is a list of package names
apt_install $missing

have icinga2 && have nagios4 && have openssl && have carbon-cache || skip "installed$missing but icinga2/nagios4/openssl/carbon-cache are still not found"
have prometheus && have prometheus-alertmanager || skip "installed$missing but prometheus/prometheus-alertmanager are still not found"
echo "integration-deps: installed$missing"
