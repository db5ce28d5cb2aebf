# Shared by install-deps.sh and install-zabbix-deps.sh (sourced, not run): the loud skip, the
# "may we install?" and root/sudo decisions, and an apt-get install that starts no daemon.
# Every failure path ends in skip, which exits 0: these scripts never fail the build.
# The sourcing script sets, before calling skip:
#   skip_label  what the SKIP line names, e.g. "integration-deps (Zabbix)"
#   skip_tests  the sentence that says which tests will be skipped
#   skip_them   "them" or "it" (the tests)
#   skip_run    the apt-get install command that would let them run
# and may set apt_opts (extra apt-get options, e.g. a dpkg lock timeout).

skip() {
	echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
	echo "SKIP: $skip_label: $1"
	echo "      $skip_tests"
	echo "      To run $skip_them: $skip_run"
	echo "      (or: sudo make integration-deps CLOUDCHECKS_INSTALL_DEPS=1)"
	echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
	exit 0
}

# Skips (with $1 as the reason's start) unless installing is allowed and apt-get exists.
require_install_allowed() {
	if [ "${CI:-}" != "true" ] && [ "${CLOUDCHECKS_INSTALL_DEPS:-}" != "1" ]; then
		skip "$1 (not installing system packages outside CI without CLOUDCHECKS_INSTALL_DEPS=1)"
	fi
	command -v apt-get >/dev/null 2>&1 || skip "$1 and no apt-get on this machine"
}

# Sets $sudo to "" as root or "sudo -n" with passwordless sudo; otherwise skips with $1.
choose_sudo() {
	sudo=""
	if [ "$(id -u)" != "0" ]; then
		if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
			sudo="sudo -n"
		else
			skip "$1"
		fi
	fi
}

# apt-get update + install of the packages in $@; skips on failure.
apt_install() {
	# The packages must not start daemons on the test machine: a policy-rc.d that forbids it,
	# for the length of the installation, unless the machine has one already.
	policy=/usr/sbin/policy-rc.d
	own_policy=""
	if [ ! -e "$policy" ]; then
		$sudo sh -c "printf '#!/bin/sh\nexit 101\n' > $policy && chmod 0755 $policy" && own_policy=1
	fi
	status=0
	# shellcheck disable=SC2086 # $apt_opts is a list of options
	$sudo apt-get ${apt_opts:-} update -qq || status=$?
	if [ "$status" = 0 ]; then
		# shellcheck disable=SC2086
		$sudo env DEBIAN_FRONTEND=noninteractive apt-get ${apt_opts:-} install -y -qq --no-install-recommends "$@" || status=$?
	fi
	[ -n "$own_policy" ] && $sudo rm -f "$policy"
	[ "$status" = 0 ] || skip "apt-get failed (exit $status) installing: $*"
}
