// The master + satellite walk-through of docs/scaling.md, run as written, for two Icinga 2
// daemons on 127.0.0.1: the master block on one private copy of the stock configuration,
// the satellite block on another, each with its own directories and API port. Nothing is set
// up around the doc but what a Debian host with the package has (the CheckCommands, the
// plugins as PluginDir, vm-fleet.conf, its interval scaled down to 15 s) and the sandbox:
// the stock paths, the documented port 5665 and the master's name are moved to each node's
// copy, its port and 127.0.0.1; `icinga2` and `systemctl restart icinga2` act on that node. Then the cluster the doc made must do what
// the doc says: the satellite gets the zone's objects from the master by config sync, its
// runner runs check_vm_fleet (dist/) against the simulator and submits to the satellite's own
// API as the ApiUser of its local conf.d, and the master's VM services carry the results,
// checked by the satellite. Then the outage day through the pair (Icinga 2.13): vCD down past
// the VM services' staleness window and back, with the zone's vcd-service.conf and its vCD host
// as the doc puts them; the master sends one notification, the satellite's vcd.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { documentedSteps, runDocumentedScript, RUNUSER_SHIM, shimCalls, type StepRun } from './support/documented-steps';
import { announceSkip, findExecutable, sleep, until } from './support/engines';
import { ClusterNode } from './support/icinga2-cluster';
import { freePort, hasStockIcingaConfig } from './support/icinga2';
import { assertBuilt, BuiltSimulator, DIST, REPO } from './support/simulator';
import { expectOnlyTheRunnerNotifies, FLEET_SERVICE_ATTRS, fleetStates, NotificationLog, type FleetServiceAttrs } from './support/vm-fleet';

const icinga2 = findExecutable('icinga2');
if (!icinga2 || !hasStockIcingaConfig()) announceSkip('icinga2', 'icinga2-bin icinga2-common (its stock /etc/icinga2)');

const DOC = 'docs/scaling.md';
const MASTER = 'icinga-master.example.com';
const SATELLITE = 'icinga-eu1.example.com';
const RUNNER = 'vcd-eu1-acme-fleet';
/** The example ticket the doc's satellite block shows in place of the one the master prints. */
const EXAMPLE_TICKET = '4f75d2ecd253575fe9180938ebff7cbca262f96e';
/** vm-fleet.conf's CloudchecksFleetInterval, 5 minutes as shipped, made this many seconds. */
const INTERVAL_S = 15;
/** The same factor for vcd-service.conf's CloudchecksVcdInterval (1 minute as shipped). */
const VCD_INTERVAL_S = (60 * INTERVAL_S) / 300;

/** One attribute of the object of `type` (endpoint, host) named `name`, through `node`'s API as `auth`; undefined when there is none. */
function attributeOf(node: ClusterNode, auth: string, type: string, name: string, attribute: string): Promise<unknown> {
  const filter = encodeURIComponent(`${type}.name==${JSON.stringify(name)}`);
  return node
    .api<{ results: Array<{ attrs: Record<string, unknown> }> }>(auth, 'GET', `/v1/objects/${type}s?attrs=${attribute}&filter=${filter}`)
    .then((x) => x.results[0]?.attrs[attribute]);
}

(icinga2 && hasStockIcingaConfig() ? describe : describe.skip)('docs/scaling.md: a master and a satellite, step by step, as written', () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-satellite-'));
  const sim = new BuiltSimulator(['--vcd-user', 'monitoring', '--vcd-provider-user', 'provider-monitor']);
  let master: ClusterNode;
  let satellite: ClusterNode;
  let ticket = '';
  /** user:password of the master's root ApiUser (node setup writes it) and of the satellite's fleet ApiUser (the doc makes it). */
  let masterAuth = '';
  let fleetAuth = '';
  /** The satellite joined and took the zone (the last tests need it). */
  let joined = false;
  /** The VM services (host!service) the runner fed on the good day. */
  let vmServices: string[] = [];
  const notes = new NotificationLog(join(root, 'notifications.log'), RUNNER);

  /** Where a node's documented commands run: its shims, its cwd (with the vCD files the doc expects there), its cache. */
  const sandbox = (node: ClusterNode) => join(node.root, 'sandbox');

  /** The master's commands: its copy, its port; config written into a zone (zones.d heredocs) holds the satellite's paths and port. */
  const onMaster = (script: string) =>
    script
      .split(/(^cat > \S*\/zones\.d\/\S+ <<'EOF'\n)([\s\S]*?)(\nEOF$)/m)
      .map((part, i) => (i % 4 === 2 ? onSatellite(part) : master.localize(part)))
      .join('')
      .replaceAll('--listen 0.0.0.0,5665', `--listen 127.0.0.1,${master.apiPort}`)
      .replaceAll('/usr/share/cloudchecks/icinga2/vm-fleet.conf', join(root, 'vm-fleet.conf'))
      .replaceAll('/usr/share/cloudchecks/icinga2/vcd-service.conf', join(root, 'vcd-service.conf'))
      .replaceAll('/usr/lib/nagios/plugins/', `${DIST}/`)
      .replaceAll('https://vcd.eu1.example.com', sim.ready.apis.vcd.httpsUrl)
      .replaceAll('@localhost:5665/', `@127.0.0.1:${master.apiPort}/`);
  /** The satellite's commands: its copy, its port, the master at 127.0.0.1 and its port, the ticket the master printed. */
  const onSatellite = (script: string) =>
    satellite
      .localize(script)
      .replaceAll('127.0.0.1,5665', `127.0.0.1,${satellite.apiPort}`)
      .replaceAll('https://127.0.0.1:5665', `https://127.0.0.1:${satellite.apiPort}`)
      .replaceAll(`--host ${MASTER} --port 5665`, `--host 127.0.0.1 --port ${master.apiPort}`)
      .replaceAll(`${MASTER},5665`, `127.0.0.1,${master.apiPort}`)
      .replaceAll('https://vcd.eu1.example.com', sim.ready.apis.vcd.httpsUrl)
      .replaceAll(EXAMPLE_TICKET, ticket);

  /** Runs a marked block on a node as one script that stops at the first failing command. */
  const run = (node: ClusterNode, id: string, localize: (s: string) => string): StepRun => {
    const lines = ['set -e', ...documentedSteps(DOC, id)];
    const script = localize(lines.join('\n'));
    // Nothing of this host's own Icinga may be touched: every stock path and port is moved.
    expect(script, script).not.toMatch(/(^|[\s'"=])\/(etc|var\/lib)\/icinga2\b|[:,]5665\b|https:\/\/vcd\.eu1/m);
    return runDocumentedScript(lines, {
      cwd: sandbox(node),
      dir: sandbox(node),
      localize,
      shims: { ...node.shims(join(sandbox(node), 'shims.log')), runuser: RUNUSER_SHIM },
      // The checks' session cache: the user's own, in the sandbox.
      env: { XDG_CACHE_HOME: join(sandbox(node), 'cache') },
      timeoutMs: 120_000,
    });
  };

  /** Sets the simulator's faults (PUT <vcd>/_sim/faults): what vCD answers from now on. */
  const simFaults = async (rules: unknown[]) => {
    const r = await fetch(`${sim.ready.apis.vcd.httpUrl}/_sim/faults`, { method: 'PUT', body: JSON.stringify(rules) });
    expect(r.status, await r.text()).toBeLessThan(300);
  };

  /** user:password of the first ApiUser of a conf.d/api-users.conf. */
  const apiUser = (node: ClusterNode, user: string) => {
    const text = readFileSync(join(node.etc, 'conf.d', 'api-users.conf'), 'utf8');
    const m = new RegExp(`object ApiUser "${user}" \\{\\s*password = "([^"]+)"`).exec(text);
    if (!m) throw new Error(`no ApiUser ${user} in ${node.name}'s conf.d/api-users.conf:\n${text}`);
    return `${user}:${m[1]}`;
  };

  beforeAll(async () => {
    assertBuilt();
    await sim.start();
    master = new ClusterNode(MASTER, icinga2!, join(root, 'master'));
    satellite = new ClusterNode(SATELLITE, icinga2!, join(root, 'satellite'));
    for (const node of [master, satellite]) {
      node.apiPort = await freePort();
      mkdirSync(join(sandbox(node), 'cache'), { recursive: true, mode: 0o700 });
      // The files the doc has the admin bring along in the current directory.
      writeFileSync(join(sandbox(node), 'vcd-eu1-acme.password'), readFileSync(sim.ready.apis.vcd.passwordFile));
      writeFileSync(join(sandbox(node), 'vcd-eu1-system.password'), readFileSync(sim.ready.apis.vcd.passwordFile));
      writeFileSync(join(sandbox(node), 'vcd-eu1-ca.pem'), readFileSync(sim.ready.caFile));
    }
    // The package's vm-fleet.conf with the runner's 5 minutes made 15 s: a new service's first
    // check comes at its slot within one interval, and the satellite has just restarted.
    const shipped = readFileSync(join(REPO, 'contrib/icinga2/vm-fleet.conf'), 'utf8');
    const fleetConf = shipped.replace('const CloudchecksFleetInterval = 5m', `const CloudchecksFleetInterval = ${INTERVAL_S}s`);
    expect(fleetConf).not.toBe(shipped);
    writeFileSync(join(root, 'vm-fleet.conf'), fleetConf);
    // vcd-service.conf with its one minute scaled by the same factor.
    const vcdShipped = readFileSync(join(REPO, 'contrib/icinga2/vcd-service.conf'), 'utf8');
    const vcdConf = vcdShipped.replace('const CloudchecksVcdInterval = 1m', `const CloudchecksVcdInterval = ${VCD_INTERVAL_S}s`);
    expect(vcdConf).not.toBe(vcdShipped);
    writeFileSync(join(root, 'vcd-service.conf'), vcdConf);
    // A test sends no mail: the master's stock notification rules give way to one that appends
    // every service notification to a file (the satellite's node setup disables its own feature).
    writeFileSync(join(master.etc, 'conf.d', 'notifications.conf'), notes.icingaConfig());
  }, 30_000);
  afterAll(async () => {
    await Promise.all([master?.stop(), satellite?.stop()]);
    await sim.stop();
    rmSync(root, { recursive: true, force: true });
  }, 60_000);

  it('on the master: node setup --master, the zone eu1 with its VM hosts and runner, a restart, a ticket for the satellite', async () => {
    const r = run(master, 'satellite-master', onMaster);
    expect(r.code, `${r.output}\n${master.logTail()}`).toBe(0);
    ticket = /^([0-9a-f]{40})$/m.exec(r.output)?.[1] ?? '';
    expect(ticket, r.output).not.toBe('');
    expect(shimCalls(sandbox(master))).toEqual(['systemctl restart icinga2']);
    const zone = join(master.etc, 'zones.d', 'eu1');
    expect(readdirSync(zone).sort()).toEqual([
      'cloudchecks-vcd-service.conf',
      'cloudchecks-vm-fleet.conf',
      'vcd-eu1-acme-fleet.conf',
      'vcd-eu1-acme-vms.conf',
      'vcd-eu1.conf',
    ]);
    expect(readFileSync(join(zone, 'vcd-eu1-acme-vms.conf'), 'utf8')).toMatch(/^object Host "vm-[0-9a-f-]{36}" \{/m);
    masterAuth = apiUser(master, 'root');
    await until(
      "the master's API",
      () => master.api<{ results: unknown[] }>(masterAuth, 'GET', '/v1/status/IcingaApplication').catch((e: Error) => e.message),
      (x) => typeof x !== 'string',
      30_000,
    );
  }, 150_000);

  it('on the satellite: the ApiUser in its local conf.d, node setup with the ticket, a restart; it joins and takes the zone by config sync', async () => {
    expect(ticket, 'the master block ran').not.toBe('');
    const r = run(satellite, 'satellite-node', onSatellite);
    expect(r.code, `${r.output}\n${satellite.logTail()}\n${master.logTail()}`).toBe(0);
    expect(shimCalls(sandbox(satellite))).toEqual(['systemctl restart icinga2']);
    // Signed by the master's CA through the ticket, not self-made.
    expect(readFileSync(satellite.caFile, 'utf8')).toBe(readFileSync(master.caFile, 'utf8'));
    fleetAuth = apiUser(satellite, 'cloudchecks-fleet');
    const password = fleetAuth.split(':')[1];
    expect(readFileSync(join(satellite.etc, 'secrets', 'api-cloudchecks-fleet.password'), 'utf8')).toBe(`${password}\n`);

    const connected = await until(
      'the satellite connected to the master',
      () => attributeOf(master, masterAuth, 'endpoint', SATELLITE, 'connected').then((connected) => connected === true),
      (x) => x,
      60_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}\n${satellite.logTail()}\n${master.logTail()}`);
    });
    expect(connected).toBe(true);
    // The zone's objects reach the satellite only by config sync (it has no zones.d of its own),
    // and it restarts with them.
    const synced = await until(
      "the runner host on the satellite, in the zone's synced config",
      () =>
        attributeOf(satellite, fleetAuth, 'host', RUNNER, 'zone')
          .then((zone) => (typeof zone === 'string' ? zone : ''))
          .catch(() => ''),
      (zone) => zone === 'eu1',
      90_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}\n${satellite.logTail()}`);
    });
    expect(synced).toBe('eu1');
    joined = true;
    expect(readdirSync(join(satellite.etc, 'zones.d')).filter((f) => f !== 'README')).toEqual([]);

    const check = run(satellite, 'satellite-check-sync', onSatellite);
    expect(check.code, check.output).toBe(0);
    expect(check.output).toContain(`declared in '${join(satellite.dataDir, 'api', 'zones', 'eu1', '_etc', 'vcd-eu1-acme-fleet.conf')}'`);
    // The ApiUser's password stays on the satellite.
    const grep = spawnSync('grep', ['-rlF', password, master.root], { encoding: 'utf8' });
    expect(grep.status, `the master's files that hold it: ${grep.stdout}`).toBe(1);
  }, 240_000);

  it("the satellite's runner submits every VM to its own API; the master's VM services carry the results, checked by the satellite", async () => {
    expect(joined, 'the satellite joined and took the zone').toBe(true);
    const expected = await fleetStates(sim.vcdArgs(), join(root, 'cache'), root);
    expect(expected.size).toBeGreaterThan(0);
    // "Check now" on the master: the satellite, whose zone the runner is in, runs it. Asked
    // again every 10 s: a satellite ignores next-check changes for a minute after its start
    // (it restarted with the synced zone), and runs the check by itself at its slot within
    // the (15 s) interval, whichever comes first.
    let asked = 0;
    const runner = await until(
      'the runner result on the master',
      async () => {
        if (Date.now() - asked > 10_000) {
          asked = Date.now();
          await master.api(masterAuth, 'POST', '/v1/actions/reschedule-check', {
            type: 'Service',
            filter: `host.name==${JSON.stringify(RUNNER)} && service.name=="vm-fleet"`,
            force: true,
          });
        }
        return master.lastResult(masterAuth, RUNNER, 'vm-fleet');
      },
      (x) => x !== null,
      150_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}\n${satellite.logTail()}`);
    });
    expect(runner!.check_source).toBe(SATELLITE);
    expect(runner!.output, runner!.output).toMatch(new RegExp(`^VM_FLEET (OK|WARNING) - \\d+ VMs? read in .*, ${expected.size} results submitted to Icinga 2`));
    for (const [name, state] of expected) {
      const [host, service] = name.split('!');
      const r = await until(
        `${name} on the master`,
        () => master.lastResult(masterAuth, host, service),
        (x) => x !== null && /^VM_/.test(x.output),
      );
      expect(r!.state, `${name}: ${r!.output}`).toBe(state);
      // Submitted by check_vm_fleet on the satellite's machine (it names its host), or repeated
      // by the satellite (vm-fleet.conf's dummy repeats a fresh result when Icinga rechecks it).
      expect(r!.check_source).toBe(r!.active ? SATELLITE : hostname());
    }

    const shown = run(master, 'satellite-check-results', onMaster);
    expect(shown.code, shown.output).toBe(0);
    const [said, source, count] = JSON.parse(shown.output.trim().split('\n').pop()!) as [string, string, number];
    expect(said).toBe(runner!.output.split('\n')[0].trim());
    expect(source).toBe(SATELLITE);
    expect(count).toBe(expected.size);
    vmServices = [...expected.keys()];
  }, 240_000);

  // On Debian 12's Icinga 2.13 only, as the bad day below: Icinga 2.14 runs the same outage day
  // on one node (outage-day.test.ts) with the same files.
  it.skipIf(process.env.CLOUDCHECKS_EXPECT_DEBIAN === '13')(
    "the outage day through the satellite: vCD down past the VM services' staleness window, then back; on the master, vcd pages its problem and at most its recovery, nothing else of the zone notifies",
    async () => {
      expect(vmServices.length, 'the good day ran').toBeGreaterThan(0);
      type Attrs = FleetServiceAttrs & { host_name: string; name: string };
      const read = () =>
        master
          .api<{ results: Array<{ attrs: Attrs }> }>(masterAuth, 'GET', `${FLEET_SERVICE_ATTRS}&attrs=host_name&attrs=name`)
          .then((r) => r.results.map((x) => x.attrs));
      const zone = (l: string) => /^(vm-|vcd-eu1!|vcd-eu1-acme-fleet!)/.test(l);
      const fresh = (all: Attrs[], since: number) =>
        vmServices.every((k) => {
          const s = all.find((x) => `${x.host_name}!${x.name}` === k);
          return s?.last_check_result != null && !s.last_check_result.active && s.last_check_result.execution_end > since;
        });
      const vcdState = async () => (await read()).find((s) => s.host_name === 'vcd-eu1' && s.name === 'vcd');
      // OK, or WARNING for the default scenario's cell that does not serve.
      await until('vcd checked on the master, vCD answering', vcdState, (s) => s?.last_check_result != null && s.state < 2, 60_000);
      await sleep(2000);
      const before = notes.lines().length;
      const dump = async () =>
        `${notes.lines().slice(before).join('\n')}\n${(await read())
          .map((s) => `${s.host_name}!${s.name} ${s.state}/${s.state_type} ${s.last_check_result?.output.split('\n')[0] ?? '-'}`)
          .join('\n')}\n${satellite.logTail(1500)}`;
      // vCD is down: every API path answers 503, as a balancer with no cell behind it does.
      await simFaults([{ path: '^/(api|cloudapi|oauth)/', kind: 'status', status: 503, body: 'no healthy vCD cell' }]);
      const broken = Date.now() / 1000;
      onTestFinished(() => simFaults([]));
      const staleness = 2 * INTERVAL_S;
      await until(
        'every VM service stale on the master',
        read,
        (all) =>
          vmServices.every((k) => {
            const s = all.find((x) => `${x.host_name}!${x.name}` === k);
            return s?.last_check_result?.active === true && s.last_check_result.output.startsWith('no result from check_vm_fleet');
          }),
        6 * staleness * 1000,
      ).catch(async (e: Error) => {
        throw new Error(`${e.message.slice(0, 300)}\n${await dump()}`);
      });
      await sleep(Math.max(0, (broken + 1.5 * staleness) * 1000 - Date.now()));
      expect((await vcdState())?.state).toBe(2);
      // vCD is back: on until every VM service holds a fresh result of the runner, then one more interval.
      await simFaults([]);
      const back = Date.now() / 1000;
      await until('every VM service fresh after the recovery', read, (all) => fresh(all, back), 8 * INTERVAL_S * 1000).catch(async (e: Error) => {
        throw new Error(`${e.message.slice(0, 300)}\n${await dump()}`);
      });
      await sleep(INTERVAL_S * 1000);
      const day = notes.lines().slice(before).filter(zone);
      // A VM service that was a problem before the outage (the default scenario's busy and full
      // VMs, notified on the good day) and is the same problem after it must not be told again:
      // Icinga 2 drops a held-back notification when the service comes back to the state it had
      // before its parent failed.
      const told = new Map(
        notes
          .lines()
          .slice(0, before)
          .map((l) => [l.split(' ')[0], l.split(' ').slice(1, 3).join(' ')] as const),
      );
      const repeats = day.filter((l) => l.startsWith('vm-') && told.get(l.split(' ')[0]) === l.split(' ').slice(1, 3).join(' '));
      console.log(
        `Icinga 2 with a satellite, outage day: ${day.length} notification(s) of the zone on the master, ${repeats.length} of them a VM problem told again in the state told before the outage (${Math.round(Date.now() / 1000 - broken)} s)`,
      );
      expect(repeats, await dump()).toEqual([]);
      const rest = day.filter((l) => !repeats.includes(l));
      // vcd's problem, then at most its return to what it was before (OK, or WARNING: the default
      // scenario has a cell down); nothing else of the zone.
      const own = rest.filter((l) => l.startsWith('vcd-eu1!vcd '));
      expect(own[0], await dump()).toMatch(/^vcd-eu1!vcd PROBLEM CRITICAL VCD CRITICAL - vCD at \S+ is not answering/);
      expect(own.slice(1), day.join('\n')).toEqual(own.length > 1 ? [expect.stringMatching(/^vcd-eu1!vcd (RECOVERY OK|PROBLEM WARNING) /)] : []);
      expect(
        rest.filter((l) => !l.startsWith('vcd-eu1!vcd ')),
        day.join('\n'),
      ).toEqual([]);
    },
    240_000,
  );

  // On Debian 12's Icinga 2.13 only: in CI's Debian 13 root it would add 70 s to a run near its
  // 30 minutes, and Icinga 2.14's first bad day is proven on one node by vm-fleet-engines.test.ts
  // with the same vm-fleet.conf.
  it.skipIf(process.env.CLOUDCHECKS_EXPECT_DEBIAN === '13')(
    "the first bad day: vCD refuses the runner's password; on the master the runner is HARD UNKNOWN naming the login before any VM service is stale, they go stale pointing at it, and only the runner notifies",
    async () => {
      expect(vmServices.length, 'the good day ran').toBeGreaterThan(0);
      // Whatever the good day notified (the simulator has busy and full VMs) is history.
      await sleep(2000);
      const before = notes.lines().length;
      // The password was changed at vCD and the runner's session ended: the satellite's file holds
      // a password vCD refuses, and vCD answers 401 to the session the runner kept.
      writeFileSync(join(satellite.etc, 'secrets', 'vcd-eu1-acme.password'), 'rotated-elsewhere\n');
      await simFaults([
        { path: '^/(?!api/versions|api/sessions|cloudapi/1\\.0\\.0/sessions)(api|cloudapi)/', kind: 'status', status: 401, body: 'session ended' },
      ]);
      const broken = Date.now() / 1000;

      const all = await expectOnlyTheRunnerNotifies(
        () =>
          master
            .api<{ results: Array<{ name: string; attrs: FleetServiceAttrs }> }>(masterAuth, 'GET', FLEET_SERVICE_ATTRS)
            .then((r) => new Map(r.results.map((x) => [x.name, x.attrs]))),
        {
          runner: RUNNER,
          vmServices,
          broken,
          intervalS: INTERVAL_S,
          notes,
          before,
          log: () => `${satellite.logTail()}\n${master.logTail()}`,
        },
      );
      // Checked by the satellite, whose zone they are in.
      expect(all.get(vmServices[0])!.last_check_result!.check_source).toBe(SATELLITE);
      await simFaults([]);
    },
    240_000,
  );
});
