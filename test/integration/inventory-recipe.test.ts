// The inventory recipe of docs/scaling.md, run as written (one script) in cron's environment
// (PATH=/usr/bin:/bin and nothing else) against the simulator and a copy of the stock
// /etc/icinga2: a discovery that works replaces the generated file and reloads, silently; one
// that fails (here: vCD answers 503) keeps the file as it was, says why, and does not reload.
// The stock paths, the plugin directory and the vCD address are moved into the sandbox;
// `icinga2` and `runuser` are shims found only in the sandbox's stand-in for /usr/sbin, which
// the recipe must add to cron's PATH itself; `runuser` is the real one behind its shim, so
// discovery runs as the real nagios user, who owns the inventory directory. Then that user
// attacks the recipe as it would the shipped refresher: links planted in its directory, and
// another owner's file in place of the inventory.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedSteps, runDocumentedScript, sbinShimDir, shimCalls } from './support/documented-steps';
import { holdOpenAs } from './support/held-file';
import { announceSkip, findExecutable, reportSkip } from './support/engines';
import { hasStockIcingaConfig, StockIcinga } from './support/icinga2';
import { assertBuilt, BuiltSimulator, DIST, REPO } from './support/simulator';

const icinga2 = findExecutable('icinga2');
if (!icinga2 || !hasStockIcingaConfig()) announceSkip('icinga2', 'icinga2-bin icinga2-common (its stock /etc/icinga2)');
// Discovery runs as the real nagios user, and the recipe as root.
const asRoot = process.getuid?.() === 0 && spawnSync('id', ['-u', 'nagios']).status === 0;
if (!asRoot)
  reportSkip({
    what: "docs/scaling.md's inventory recipe",
    why: 'it runs as root, discovery as the nagios user',
    fix: 'Run as root with the engines installed (make integration-deps).',
  });

(icinga2 && hasStockIcingaConfig() && asRoot ? describe : describe.skip)('docs/scaling.md: the inventory recipe', () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-inventory-'));
  const sim = new BuiltSimulator(['--vcd-scenario', 'healthy', '--vcd-user', 'monitoring']);
  let icinga: StockIcinga;
  const sandbox = join(root, 'sandbox');
  const file = () => join(icinga.etc, 'conf.d', 'vcd-inventory', 'vcd-eu1-acme-vms.conf');
  const passwordFile = () => join(icinga.etc, 'secrets', 'vcd-eu1-acme.password');
  const run = () =>
    // One group, so that the output holds the stderr of every line of it, not only the last.
    runDocumentedScript(['{', ...documentedSteps('docs/scaling.md', 'inventory-icinga2'), '}'], {
      cwd: root,
      dir: sandbox,
      localize: (l) =>
        icinga
          .localize(l)
          .replaceAll('https://vcd.eu1.example.com', sim.ready.apis.vcd.httpsUrl)
          .replaceAll('/usr/lib/nagios/plugins/', `${DIST}/`)
          .replaceAll('/usr/sbin', sbinShimDir(sandbox)),
      // Cron's environment: icinga2 and runuser only where the recipe's PATH line looks (/usr/sbin).
      cron: { sbinShims: { icinga2: icinga.shim(), runuser: 'exec /usr/sbin/runuser "$@"' } },
      // runuser keeps these: the simulator's CA, and a cache of the nagios user's in the sandbox.
      env: { NODE_EXTRA_CA_CERTS: join(root, 'ca.pem'), XDG_CACHE_HOME: join(root, 'cache'), HOME: join(root, 'home') },
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
  let nagiosUid = -1;
  /** A command as the nagios user. */
  const asNagios = (script: string, ...args: string[]) =>
    spawnSync('runuser', ['-u', 'nagios', '--', '/bin/sh', '-c', script, 'sh', ...args], { encoding: 'utf8', timeout: 30_000 });
  /** A file of root's that the nagios user may not read. */
  const rootOnly = (name: string) => {
    const f = join(root, name);
    writeFileSync(f, 'root-only secret 7d2e\n', { mode: 0o600 });
    return f;
  };
  const intact = (f: string) => {
    const st = lstatSync(f);
    expect({ content: readFileSync(f, 'utf8'), uid: st.uid, mode: st.mode & 0o7777 }).toEqual({ content: 'root-only secret 7d2e\n', uid: 0, mode: 0o600 });
  };

  beforeAll(async () => {
    assertBuilt();
    await sim.start();
    icinga = new StockIcinga(icinga2!, join(root, 'icinga'), { skipContrib: /^cloudchecks/ });
    for (const f of ['commands.conf', 'vm-discovery.conf'])
      writeFileSync(join(icinga.etc, 'conf.d', `cloudchecks-${f}`), readFileSync(join(REPO, 'contrib/icinga2', f)));
    // The nagios user reaches its directory, its password, the CA and its cache, not the rest.
    nagiosUid = Number(execFileSync('id', ['-u', 'nagios'], { encoding: 'utf8' }).trim());
    chmodSync(root, 0o711);
    // As Debian's package leaves them: /etc/icinga2 and its conf.d are the nagios user's (0750).
    for (const d of [icinga.root, icinga.etc, join(icinga.etc, 'conf.d')]) chownSync(d, d === icinga.root ? 0 : nagiosUid, d === icinga.root ? 0 : nagiosUid);
    mkdirSync(join(icinga.etc, 'secrets'));
    writeFileSync(passwordFile(), readFileSync(sim.ready.apis.vcd.passwordFile), { mode: 0o600 });
    chownSync(passwordFile(), nagiosUid, nagiosUid);
    writeFileSync(join(root, 'ca.pem'), readFileSync(sim.ready.caFile), { mode: 0o644 });
    mkdirSync(join(root, 'cache'), { mode: 0o700 });
    chownSync(join(root, 'cache'), nagiosUid, nagiosUid);
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
    // Written by discovery as the nagios user, in the directory the recipe gave it.
    expect([lstatSync(file()).uid, lstatSync(join(icinga.etc, 'conf.d', 'vcd-inventory')).uid]).toEqual([nagiosUid, nagiosUid]);
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

  it("<inventory>.last planted by the nagios user as a link to a root-only file: the file's content, owner and mode are unchanged", () => {
    const secret = rootOnly('root-only-file');
    expect(asNagios('ln -sf "$1" "$2"', secret, `${file()}.last`).status).toBe(0);
    try {
      const r = run();
      expect(r.code, r.output).toBe(0);
      intact(secret);
    } finally {
      rmSync(`${file()}.last`, { force: true });
    }
  }, 60_000);

  it('the inventory planted as a link to a root-only secret: refused and named; the secret never reaches the user, even through a file it holds open', async () => {
    const secret = rootOnly('root-only-secret');
    const dir = join(icinga.etc, 'conf.d', 'vcd-inventory');
    const held = join(dir, 'held');
    const go = join(root, 'go');
    const planted = asNagios('mv -f "$1" "$1.keep" && ln -s "$2" "$1" && : >"$3" && ln -sf "$3" "$1.last"', file(), secret, held);
    expect(planted.status, planted.stderr).toBe(0);
    const holder = holdOpenAs('nagios', held, go);
    try {
      const r = run();
      const seen = await holder.release();
      expect(seen, 'what the held descriptor reads').not.toContain('7d2e');
      for (const f of readdirSync(dir)) expect(asNagios('cat "$1"', join(dir, f)).stdout, f).not.toContain('7d2e');
      intact(secret);
      expect(r.output).toBe(`${file()} is a link or not the nagios user's own file: refused, left as it is\n`);
      expect(r.code).toBe(1);
      expect(readlinkSync(file())).toBe(secret);
    } finally {
      holder.stop();
      for (const f of [file(), `${file()}.last`, held, go]) rmSync(f, { force: true });
      asNagios('mv -f "$1.keep" "$1"', file());
    }
  }, 60_000);

  it("another user's file in place of the inventory: refused, left as it was", () => {
    const before = readFileSync(file(), 'utf8');
    const nobody = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim());
    const foreign = `// nobody's\n${before}`;
    writeFileSync(file(), foreign);
    chownSync(file(), nobody, nobody);
    try {
      const r = run();
      expect(readFileSync(file(), 'utf8')).toBe(foreign);
      expect(lstatSync(file()).uid).toBe(nobody);
      expect(r.output).toBe(`${file()} is a link or not the nagios user's own file: refused, left as it is\n`);
      expect(r.code).toBe(1);
    } finally {
      writeFileSync(file(), before);
      chownSync(file(), nagiosUid, nagiosUid);
    }
  }, 60_000);
});
