# cloudchecks: build, test, install. `make` builds dist/; `make test` runs every test.
PREFIX    ?= /usr/local
PLUGINDIR ?= /usr/lib/nagios/plugins
BINDIR    ?= $(PREFIX)/bin
DESTDIR   ?=
NPM_CI    := npm ci --no-audit --no-fund --loglevel=error

.PHONY: all build deps lint test unit check-dist demo bench install uninstall clean integration-deps

all: build

# Reinstall dependencies whenever the lock file changes (and on a fresh clone).
node_modules/.package-lock.json: package-lock.json
	$(NPM_CI)
	@touch $@

deps: node_modules/.package-lock.json

build: deps
	node build.mjs dist

lint: deps
	npx tsc --noEmit -p tsconfig.json

# dist/ is committed so that users can copy it; it must be what the sources build.
check-dist: deps
	@tmp=$$(mktemp -d) && node build.mjs $$tmp && \
	if diff -r dist $$tmp >/dev/null; then echo "check-dist: dist/ matches a fresh build"; rm -rf $$tmp; \
	else diff -rq dist $$tmp; rm -rf $$tmp; echo "check-dist: dist/ is out of date: run 'make' and commit dist/"; exit 1; fi

unit: deps
	npx vitest run test/unit

test: deps lint check-dist integration-deps
	npx vitest run --reporter=default --reporter=json --outputFile.json=.cache/vitest-results.json
	@node -e 'const r=require("./.cache/vitest-results.json"); console.log(`$${r.numPassedTests} passed, $${r.numFailedTests} failed, $${r.numPendingTests + r.numTodoTests} skipped`)'

# Start-up cost and memory against bare node and peers; writes bench/RESULTS.md.
bench:
	python3 bench/bench.py

# The Icinga 2 and Nagios engines the integration tests run (test/integration/): installs
# them in CI (CI=true), else says loudly that those tests will be skipped.
integration-deps:
	@sh test/integration/install-deps.sh
	@sh test/integration/install-zabbix-deps.sh

# Every plugin against the built-in simulator, healthy and sick. Needs only node and the
# committed dist/ (no npm install).
demo:
	node sim/demo.mjs

# Installs the committed dist/ as it is (no npm, no rebuild): plugins into PLUGINDIR, the
# simulator into BINDIR.
install:
	install -d $(DESTDIR)$(PLUGINDIR) $(DESTDIR)$(BINDIR)
	for f in dist/check_*; do install -m 0755 $$f $(DESTDIR)$(PLUGINDIR)/; done
	install -m 0755 dist/cloudchecks-sim $(DESTDIR)$(BINDIR)/

uninstall:
	for f in dist/check_*; do rm -f $(DESTDIR)$(PLUGINDIR)/$$(basename $$f); done
	rm -f $(DESTDIR)$(BINDIR)/cloudchecks-sim

clean:
	rm -rf node_modules
