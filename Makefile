# cloudchecks: build, test, install. `make` builds dist/; `make test` runs every test.
PREFIX    ?= /usr/local
PLUGINDIR ?= /usr/lib/nagios/plugins
BINDIR    ?= $(PREFIX)/bin
SBINDIR   ?= $(PREFIX)/sbin
DESTDIR   ?=
NPM_CI    := npm ci --no-audit --no-fund --loglevel=error

.PHONY: all build lists deps lint format test test-code test-hosts test-node-versions unit check-dist demo bench install install-sim install-package uninstall uninstall-sim clean integration-deps deb rpm packages package-deps

all: build

# Reinstall dependencies whenever the lock file changes (and on a fresh clone).
node_modules/.package-lock.json: package-lock.json
	$(NPM_CI)
	@touch $@

deps: node_modules/.package-lock.json

build: deps
	node build.mjs dist

# Every list of plugins that is not prose, made from plugins/registry.json (package.json
# `bin`, the docs' install lists, the simulator's manual page); test/unit/registry.test.ts
# fails while one is out of date.
lists:
	node scripts/plugin-lists.mjs

# Type-checks, lints (eslint.config.mjs) and checks the formatting (.prettierrc.json);
# `make format` rewrites the files prettier would change.
# Prettier takes the files git knows (or, outside a checkout, the tree): walking the tree would
# enter .cache/, where make test mounts /proc into the Debian 13 root while lint runs.
PRETTIER_FILES = { git ls-files -z 2>/dev/null || printf '.\0'; }
lint: deps
	npx tsc --noEmit -p tsconfig.json
	npx eslint --max-warnings 0 --cache --cache-location .cache/eslint/ .
	$(PRETTIER_FILES) | xargs -0 npx prettier --check --log-level warn --ignore-unknown

format: deps
	$(PRETTIER_FILES) | xargs -0 npx prettier --write --log-level warn --ignore-unknown

# dist/ is committed so that users can copy it; it must be what the sources build.
check-dist: deps
	@tmp=$$(mktemp -d) && node build.mjs $$tmp && \
	if diff -r dist $$tmp >/dev/null; then echo "check-dist: dist/ matches a fresh build"; rm -rf $$tmp; \
	else diff -rq dist $$tmp; rm -rf $$tmp; echo "check-dist: dist/ is out of date: run 'make' and commit dist/"; exit 1; fi

unit: deps
	npx vitest run test/unit

# Every test on the host's Node.js; in CI (CI=true) also the suites on the other tested
# Node.js versions (scripts/node-versions, fetched into .cache/node when missing) and the
# engines of Debian 13 (scripts/run-tests says which run takes what). The engines install
# (test-hosts) while the code is checked and the unit tests run (test-code): the one waits on
# the network and dpkg, the other on the CPU. Ends with one line: N passed, N failed, N
# skipped (summed over every run).
test: deps
	@$(MAKE) --no-print-directory -j2 --output-sync=recurse test-code test-hosts
	@sh scripts/run-tests --after-host-unit

test-code: lint check-dist
	@sh scripts/run-tests --host-unit

# One after the other: both take dpkg's lock.
test-hosts:
	@$(MAKE) --no-print-directory integration-deps
	@$(MAKE) --no-print-directory package-deps

# The unit, e2e and fault suites on each tested Node.js only (CI runs them within make test).
test-node-versions: deps
	@sh scripts/run-tests --versions-only

# Start-up cost and memory against a bare https.get and peers, one table per tested Node.js
# (fetched into .cache/node when missing); writes bench/RESULTS.md.
bench:
	python3 bench/bench.py

# The Icinga 2, Nagios and Zabbix engines the integration tests run (test/integration/), and the
# Debian 13 root with its own (.cache/trixie): installs them in CI (CI=true), else says loudly
# that those tests will be skipped.
integration-deps:
	@sh test/integration/install-deps.sh
	@sh test/integration/install-zabbix-deps.sh
	@sh test/integration/install-trixie.sh

# Every plugin against the built-in simulator, healthy and sick. Needs only node and the
# committed dist/ (no npm install).
demo:
	node sim/demo.mjs

# Installs the committed dist/ as it is (no npm, no rebuild): the plugins into PLUGINDIR.
# The simulator is a separate choice: make install-sim (into BINDIR).
install:
	install -d $(DESTDIR)$(PLUGINDIR)
	for f in dist/check_*; do install -m 0755 $$f $(DESTDIR)$(PLUGINDIR)/; done
	@echo "installed the plugins into $(DESTDIR)$(PLUGINDIR) (not the simulator: make install-sim puts it into $(BINDIR))"

install-sim:
	install -d $(DESTDIR)$(BINDIR)
	install -m 0755 dist/cloudchecks-sim $(DESTDIR)$(BINDIR)/
	@echo "installed the simulator as $(DESTDIR)$(BINDIR)/cloudchecks-sim"

uninstall:
	for f in dist/check_*; do rm -f $(DESTDIR)$(PLUGINDIR)/$$(basename $$f); done

uninstall-sim:
	rm -f $(DESTDIR)$(BINDIR)/cloudchecks-sim

# What the .deb and the .rpm install (packaging/): the plugins and their manual pages (made
# from their --help by build.mjs, in dist/man), the simulator, the Icinga 2
# CheckCommands where `include <plugins-contrib>` finds them, the Nagios command definitions
# (NAGIOSCONFDIR, empty: not installed), every contrib/ file and the docs. Globs, not
# names, so that a new plugin or contrib file is packaged without a change here. Only the
# command definitions (contrib/*/*commands*) go where the engines read them by themselves:
# the other files (example services, discovery rules) are the admin's to include. The
# inventory refresher (contrib/inventory) goes into SBINDIR with its manual page
# (packaging/cloudchecks-inventory.8), its hourly cron job into CRONDIR (inert until
# /etc/cloudchecks/inventory.conf exists) and its systemd timer, not enabled, into
# SYSTEMDUNITDIR.
CRONDIR           ?= /etc/cron.d
SYSTEMDUNITDIR    ?= /lib/systemd/system
ICINGA2CONTRIBDIR ?= /usr/share/icinga2/include/plugins-contrib.d
NAGIOSCONFDIR     ?= /etc/nagios-plugins/config
DATADIR           ?= /usr/share/cloudchecks
DOCDIR            ?= /usr/share/doc/cloudchecks
MANDIR            ?= /usr/share/man
install-package: install install-sim
	install -d $(DESTDIR)$(ICINGA2CONTRIBDIR) $(DESTDIR)$(DATADIR) $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man8
	install -m 0644 packaging/cloudchecks-sim.1 dist/man/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 packaging/cloudchecks-inventory.8 $(DESTDIR)$(MANDIR)/man8/
	for f in contrib/icinga2/*commands*.conf; do case $$f in */commands.conf) n=cloudchecks.conf;; *) n=cloudchecks-$$(basename $$f);; esac; \
		install -m 0644 $$f $(DESTDIR)$(ICINGA2CONTRIBDIR)/$$n; done
	if [ -n "$(NAGIOSCONFDIR)" ]; then install -d $(DESTDIR)$(NAGIOSCONFDIR); \
		for f in contrib/nagios/*commands*.cfg; do case $$f in */commands.cfg) n=cloudchecks.cfg;; *) n=cloudchecks-$$(basename $$f);; esac; \
		install -m 0644 $$f $(DESTDIR)$(NAGIOSCONFDIR)/$$n; done; fi
	cd contrib && find . -type f | LC_ALL=C sort | while read -r f; do install -D -m 0644 "$$f" "$(DESTDIR)$(DATADIR)/$$f"; done
	install -D -m 0755 contrib/inventory/cloudchecks-inventory $(DESTDIR)$(SBINDIR)/cloudchecks-inventory
	install -D -m 0644 contrib/inventory/cloudchecks-inventory.cron $(DESTDIR)$(CRONDIR)/cloudchecks-inventory
	install -d $(DESTDIR)$(SYSTEMDUNITDIR)
	install -m 0644 contrib/inventory/cloudchecks-inventory.service contrib/inventory/cloudchecks-inventory.timer $(DESTDIR)$(SYSTEMDUNITDIR)/
	install -m 0644 README.md $(DESTDIR)$(DOCDIR)/
	install -m 0644 docs/*.md $(DESTDIR)$(DOCDIR)/docs/
	if [ -f dist/THIRD-PARTY-NOTICES ]; then install -m 0644 dist/THIRD-PARTY-NOTICES $(DESTDIR)$(DOCDIR)/; fi

# Packages of the committed dist/ (reproducible: the same commit gives the same bytes), into
# build/packages/. Need dpkg-dev + debhelper (+ lintian) and rpm: make package-deps.
deb:
	@sh packaging/build-deb
rpm:
	@sh packaging/build-rpm
packages: deb rpm

# The Debian/RPM build tools for make deb / make rpm: installed in CI, else a loud SKIP.
package-deps:
	@sh packaging/install-deps

clean:
	rm -rf node_modules build
