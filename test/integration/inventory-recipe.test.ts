// The inventory recipe of docs/scaling.md, run as written (one script) in cron's environment
// (PATH=/usr/bin:/bin and nothing else) against the simulator and a copy of the stock
// /etc/icinga2: a discovery that works replaces the generated file and reloads, silently; one
// that fails (here: vCD answers 503) keeps the file as it was, says why, and does not reload.
// The stock paths, the plugin directory and the vCD address are moved into the sandbox;
// `icinga2` and `runuser -u nagios --` are shims found only in the sandbox's stand-in for
// /usr/sbin, which the recipe must add to cron's PATH itself.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedSteps, runDocumentedScript, RUNUSER_SHIM, sbinShimDir, shimCalls } from './support/documented-steps';
import { announceSkip, findExecutable } from './support/engines';
import { hasStockIcingaConfig, StockIcinga } from './support/icinga2';
import { assertBuilt, BuiltSimulator, DIST, REPO } from './support/simulator';

const icinga2 = findExecutable('icinga2');
if (!icinga2 || !hasStockIcingaConfig()) announceSkip('icinga2', 'icinga2-bin icinga2-common (its stock /etc/icinga2)');

(icinga2 && hasStockIcingaConfig() ? describe : describe.skip)('docs/scaling.md: the inventory recipe', () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-inventory-'));
  const sim = new BuiltSimulator(['--vcd-scenario', 'healthy', '--vcd-user', 'monitoring']);
  let icinga: StockIcinga;
  const sandbox = join(root, 'sandbox');
  const file = () => join(icinga.etc, 'conf.d', 'vcd-inventory', 'vcd-eu1-acme-vms.conf');
  const passwordFile = () => join(icinga.etc, 'secrets', 'vcd-eu1-acme.password');
  const run = () =>
    runDocumentedScript(documentedSteps('docs/scaling.md', 'inventory-icinga2'), {
      cwd: root,
      dir: sandbox,
      localize: (l) =>
        icinga
          .localize(l)
          .replaceAll('https://vcd.eu1.example.com', sim.ready.apis.vcd.httpsUrl)
          .replaceAll('/usr/lib/nagios/plugins/', `${DIST}/`)
          .replaceAll('/usr/sbin', sbinShimDir(sandbox)),
      shims: { chown: ':' },
      // Cron's environment: icinga2 and runuser only where the recipe's PATH line looks (/usr/sbin).
      cron: { sbinShims: { icinga2: icinga.shim(), runuser: RUNUSER_SHIM } },
      env: { NODE_EXTRA_CA_CERTS: sim.ready.caFile, HOME: join(root, 'home') },
    });
  /** Sets the simulator's faults (PUT <api>/_sim/faults). */
  const faults = (list: unknown[]) =>
    new Promise<void>((resolve, reject) => {
      const req = https.request(new URL('/_sim/faults', sim.ready.apis.vcd.httpsUrl), { method: 'PUT', ca: readFileSync(sim.ready.caFile) }, (res) =>
        res.resume().on('end', () => resolve()),
      );
      req.on('error', reject);
      req.end(JSON.stringify(list));
    });
  const reloads = () => shimCalls(sandbox).filter((c) => c === 'systemctl reload icinga2').length;

  beforeAll(async () => {
    assertBuilt();
    await sim.start();
    icinga = new StockIcinga(icinga2!, join(root, 'icinga'), { skipContrib: /^cloudchecks/ });
    for (const f of ['commands.conf', 'vm-discovery.conf'])
      writeFileSync(join(icinga.etc, 'conf.d', `cloudchecks-${f}`), readFileSync(join(REPO, 'contrib/icinga2', f)));
    mkdirSync(join(icinga.etc, 'secrets'));
    writeFileSync(passwordFile(), readFileSync(sim.ready.apis.vcd.passwordFile), { mode: 0o600 });
    mkdirSync(join(root, 'home'));
  }, 30_000);
  afterAll(async () => {
    await sim.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('writes the hosts, validates and reloads when discovery works', () => {
    const r = run();
    expect(r.code, r.output).toBe(0);
    expect(r.output).toBe('');
    expect(readFileSync(file(), 'utf8')).toMatch(/^object Host "vm-[0-9a-f-]{36}" \{/m);
    expect(reloads()).toBe(1);
  }, 60_000);

  it('an unchanged inventory leaves the file untouched and does not reload', () => {
    const before = statSync(file()).mtimeMs;
    const r = run();
    expect(r.code, r.output).toBe(0);
    // Silent: cron mails any output.
    expect(r.output).toBe('');
    expect(statSync(file()).mtimeMs).toBe(before);
    expect(reloads()).toBe(1);
  }, 60_000);

  it('keeps the file, says why and does not reload when discovery fails', async () => {
    const before = readFileSync(file(), 'utf8');
    await faults([{ kind: 'status', status: 503 }]);
    const r = run();
    expect(r.output).toMatch(/^VM_CPU UNKNOWN - .*HTTP 503/m);
    expect(r.output.split('\n').filter(Boolean)).toHaveLength(1);
    expect(readFileSync(file(), 'utf8')).toBe(before);
    expect(reloads()).toBe(1);
    await faults([]);
  }, 60_000);

  it('a new inventory that does not validate is replaced by the last good one, and no reload', () => {
    const good = readFileSync(file(), 'utf8');
    // A changed inventory (a VM less) that Icinga refuses: its host template is gone.
    rmSync(join(icinga.etc, 'conf.d', 'cloudchecks-vm-discovery.conf'));
    writeFileSync(file(), good.replace(/\nobject Host [^]*?\n\}\n/, '\n'));
    const r = run();
    expect(r.output).toMatch(/does not validate, the last good one is put back: .*cloudchecks-vcd-vm/);
    expect(readFileSync(file(), 'utf8')).toBe(good.replace(/\nobject Host [^]*?\n\}\n/, '\n'));
    expect(reloads()).toBe(1);
    writeFileSync(join(icinga.etc, 'conf.d', 'cloudchecks-vm-discovery.conf'), readFileSync(join(REPO, 'contrib/icinga2/vm-discovery.conf')));
  }, 60_000);
});
