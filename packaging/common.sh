# Shared by packaging/build-deb and packaging/build-rpm (sourced, POSIX sh).
# Sets: root, version, epoch (SOURCE_DATE_EPOCH), commit, out (build/packages), and
# stage DIR: copies what the packages are made of (the committed dist/ with its manual pages,
# contrib/, docs/, the Makefile that installs them) into DIR, with every mtime set to the epoch.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
version=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' package.json | head -n 1)
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
# The same commit gives the same packages: every date inside them is the commit's.
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null) || {
    echo "packaging: not a git checkout: set SOURCE_DATE_EPOCH (seconds since 1970) for the package dates" >&2
    exit 1
  }
fi
epoch=$SOURCE_DATE_EPOCH
export SOURCE_DATE_EPOCH
export LC_ALL=C TZ=UTC
umask 022
out=$root/build/packages
mkdir -p "$out"

for f in dist/cloudchecks-sim dist/check_nodes; do
  [ -x "$f" ] || { echo "packaging: $f is missing: run make" >&2; exit 1; }
done
[ -f dist/man/check_nodes.1 ] || { echo "packaging: dist/man/ (the manual pages) is missing: run make" >&2; exit 1; }

stage() {
  rm -rf "$1"
  mkdir -p "$1/dist"
  cp dist/check_* dist/cloudchecks-sim "$1/dist/"
  [ -f dist/THIRD-PARTY-NOTICES ] && cp dist/THIRD-PARTY-NOTICES "$1/dist/"
  cp -R dist/man "$1/dist/"
  cp -R contrib docs "$1/"
  cp Makefile README.md LICENSE package.json "$1/"
  mkdir -p "$1/packaging" && cp packaging/cloudchecks-sim.1 packaging/cloudchecks-inventory.8 "$1/packaging/"
  find "$1" -exec touch -h -d "@$epoch" {} +
}

need() {
  command -v "$1" >/dev/null 2>&1 || { echo "packaging: $1 is missing: $2 (or: make package-deps CLOUDCHECKS_INSTALL_DEPS=1)" >&2; exit 1; }
}
