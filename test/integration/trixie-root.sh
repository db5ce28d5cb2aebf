#!/bin/sh
# make test's Debian 13 root: install-trixie.sh in the background, so that making the root (some
# four minutes of debootstrap and apt-get, mostly waiting on the network and dpkg) runs beside
# the code checks, the unit tests and the first lanes instead of before them. The engines lane
# of scripts/run-tests waits for it before its Debian 13 run, which comes some ten minutes in.
#   trixie-root.sh start  in CI (CI=true) or when asked (CLOUDCHECKS_INSTALL_DEPS=1 or
#                         CLOUDCHECKS_TRIXIE=1): starts it, its output in .cache/trixie-root.log;
#                         otherwise nothing (install-trixie.sh --host-tools has said why)
#   trixie-root.sh wait   waits for it (at most 30 minutes) and prints its output; returns at
#                         once when none was started
# The host's part (debootstrap itself, which takes the host's dpkg lock) is done before, in the
# foreground: install-trixie.sh --host-tools. Never fails the build, as install-trixie.sh.
set -u
cd "$(dirname "$0")/../.." || exit 0
log=.cache/trixie-root.log
ended=.cache/trixie-root.ended
case ${1:-} in
start)
	mkdir -p .cache
	rm -f "$log" "$ended"
	if [ "${CI:-}" = "true" ] || [ "${CLOUDCHECKS_INSTALL_DEPS:-}" = "1" ] || [ "${CLOUDCHECKS_TRIXIE:-}" = "1" ]; then
		(
			sh test/integration/install-trixie.sh >"$log" 2>&1
			echo "$?" >"$ended"
		) </dev/null >/dev/null 2>&1 &
		echo "integration-deps: making the Debian 13 root in the background (log: $log)"
	fi
	;;
wait)
	[ -f "$log" ] || exit 0
	waited=0
	while [ ! -f "$ended" ] && [ "$waited" -lt 1800 ]; do
		sleep 5
		waited=$((waited + 5))
	done
	[ "$waited" -gt 0 ] && echo "trixie-root: waited $waited s for the Debian 13 root"
	cat "$log"
	[ -f "$ended" ] || echo "trixie-root: the Debian 13 root was not made within 1800 s (log: $log)"
	;;
*)
	echo "usage: trixie-root.sh start|wait" >&2
	exit 2
	;;
esac
exit 0
