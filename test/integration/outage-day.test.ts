// One vCD outage and its recovery in the real Icinga 2, with the shipped files and only the
// documented steps, over the real intervals scaled: every interval of vcd-service.conf,
// vdc-discovery.conf and vm-fleet.conf divided by SCALE through their constants, nothing else
// changed, no check forced. The day: first start (new VM services wait for their first fleet
// result), vCD stopped for longer than the VM services' staleness window, vCD back, and on until
// every VM, VDC and provider VDC service holds a fresh result again. One notification for the
// whole outage, check_vcd's problem, and at most its recovery: none for a VM, a VDC, a provider
// VDC or the fleet runner. vCD is "stopped" by closing the port the checks use (a TCP relay in
// front of the simulator), which refuses connections as a stopped vCD does and resets those open
// at that moment, whatever a check was reading.
// Problems measured before the outage stay what they are: a VDC and a provider VDC over their
// memory warning limit and a VM with a snapshot older than its warning age (a passive service the
// runner feeds) are WARNING, a VM with a 10-day snapshot CRITICAL, each notified at first start;
// through the outage (their checks fail, the VM services go stale) and the recovery they are not
// notified again, and end as they were.
// Then the rejected-password day: vCD refuses check_vcd's own account (its password file no
// longer holds vCD's password) for longer than the staleness window, and a VDC climbs to 97 %
// of its memory meanwhile: check_vcd pages the refused login, the VDC pages its memory while
// the login is still refused (the others are not held back by a login that says nothing of
// vCD), and nothing else notifies until the password is fixed and every service is fresh.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runExecutable } from '../support/spawn';
import { announceSkip, findExecutable, sleep, until } from './support/engines';
import { PrivateIcinga } from './support/icinga2';
import { closeWhileCellsRead, Relay } from './support/relay';
import { assertBuilt, BuiltSimulator, DIST, REPO } from './support/simulator';
import { API_PASSWORD } from './support/vm-fleet';

const icinga2 = findExecutable('icinga2');
if (!icinga2) announceSkip('icinga2', 'icinga2-bin icinga2-common');

/** Every interval of the shipped files is divided by this. */
const SCALE = 30;
/** The shipped intervals (s), as their constants set them. */
const SHIPPED = { CloudchecksVcdInterval: 60, CloudchecksFleetInterval: 300, CloudchecksVdcInterval: 900, CloudchecksPvdcInterval: 900 } as const;
const scaled = (name: keyof typeof SHIPPED) => SHIPPED[name] / SCALE;

/** A shipped contrib file with its interval constants divided by SCALE (and nothing else changed). */
function scaledContrib(file: string): string {
  let text = readFileSync(join(REPO, 'contrib/icinga2', file), 'utf8');
  for (const name of Object.keys(SHIPPED) as Array<keyof typeof SHIPPED>) {
    const line = new RegExp(`^const ${name} = (\\d+)m$`, 'm');
    const m = line.exec(text);
    if (!m) continue;
    expect(Number(m[1]) * 60, `${file}: ${name}`).toBe(SHIPPED[name]);
    text = text.replace(line, `const ${name} = ${scaled(name)}s`);
  }
  return text;
}

interface ServiceAttrs {
  host_name: string;
  name: string;
  state: number;
  state_type: number;
  last_check_result: { state: number; output: string; active: boolean; execution_end: number } | null;
}

(icinga2 ? describe : describe.skip)('Icinga 2: one vCD outage, through the recovery, over the shipped intervals scaled', () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-outage-day-'));
  const sim = new BuiltSimulator(['--vcd-scenario', 'healthy']);
  let relay: Relay | undefined;
  let icinga: PrivateIcinga | undefined;
  afterAll(async () => {
    await icinga?.stop();
    await relay?.close();
    await sim.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it(
    "vCD stopped past the staleness window, then back; then check_vcd's password refused: check_vcd notifies its problem and at most its recovery each time, a VDC over its limit notifies during the refused login, problems notified before the outage are not notified again, nothing else",
    { timeout: 480_000 },
    async () => {
      assertBuilt();
      const ready = await sim.start();
      const api = ready.apis.vcd;
      const simControl = async (path: string) => {
        const r = await fetch(`${api.httpUrl}${path}`, { method: 'PUT' });
        expect(r.status, await r.text()).toBeLessThan(300);
      };
      // Problems before the outage: WARNING from 80 % (memory 85 %) and a snapshot 4 days old (WARNING from 3 days).
      await simControl('/_sim/vcd/vdc?vdc=acme-prod&memory=85');
      await simControl('/_sim/vcd/pvdc?pvdc=pvdc-gold-01&memory=85');
      relay = new Relay(Number(new URL(api.httpsUrl).port));
      await relay.open();
      const url = `https://127.0.0.1:${relay.port}`;
      const caFile = join(root, 'ca.pem');
      copyFileSync(ready.caFile, caFile);
      const apiPasswordFile = join(root, 'api.password');
      writeFileSync(apiPasswordFile, `${API_PASSWORD}\n`, { mode: 0o600 });
      const cache = join(root, 'cache');
      // check_vcd's own account, as vcd-service.conf advises: a password file no other check reads.
      const vcdPasswordFile = join(root, 'vcd-service.password');
      copyFileSync(api.passwordFile, vcdPasswordFile);
      const connection = (user: string, org: string) => ['--url', url, '--user', user, '--org', org, '--password-file', api.passwordFile, '--ca-file', caFile];
      // The documented discoveries, into files of their own.
      const discover = async (plugin: string, user: string, org: string, file: string) => {
        const r = await runExecutable(
          join(DIST, plugin),
          ['--discovery', '--discovery-format', 'icinga2', ...connection(user, org), '--cache-dir', cache, '--discovery-file', join(root, file)],
          { env: { PATH: process.env.PATH, HOME: root } },
        );
        expect(r.code, r.stdout).toBe(0);
        return file;
      };
      const vms = await discover('check_vm_cpu', api.user, api.org, 'vcd-acme-vms.conf');
      const vdcs = await discover('check_vdc', api.user, api.org, 'vcd-acme-vdcs.conf');
      const pvdcs = await discover('check_pvdc', api.providerUser, 'System', 'vcd-pvdcs.conf');
      const oldSnapshotVm = /^object Host "(vm-[0-9a-f-]+)"/m.exec(readFileSync(join(root, vms), 'utf8'))?.[1];
      expect(oldSnapshotVm, 'a VM in the inventory').toBeDefined();
      await simControl(`/_sim/vcd/snapshot?vm=${oldSnapshotVm}&days=4`);
      for (const file of ['vcd-service.conf', 'vm-fleet.conf', 'vdc-discovery.conf']) writeFileSync(join(root, file), scaledContrib(file));
      const notes = join(root, 'notes.log');
      writeFileSync(notes, '');
      const vars = (v: Record<string, string | boolean>) =>
        Object.entries(v)
          .map(([k, x]) => `  vars.${k} = ${JSON.stringify(x)}`)
          .join('\n');
      icinga = new PrivateIcinga({
        icinga2: icinga2!,
        pluginDir: DIST,
        objects: [
          `include ${JSON.stringify(join(REPO, 'contrib/icinga2/commands.conf'))}`,
          ...['vcd-service.conf', 'vm-fleet.conf', 'vdc-discovery.conf', vms, vdcs, pvdcs].map((f) => `include ${JSON.stringify(join(root, f))}`),
          // The vcd host of vcd-service.conf and the runner host of vm-fleet.conf, as documented.
          `object Host "vcd" {\n  check_command = "dummy"\n  vars.cloudchecks_vcd_service = true\n${vars({
            cloudchecks_vcd_url: url,
            cloudchecks_vcd_user: api.providerUser,
            cloudchecks_vcd_org: 'System',
            cloudchecks_vcd_password_file: vcdPasswordFile,
            cloudchecks_ca_file: caFile,
          })}\n}`,
          `object Host "vcd-acme-fleet" {\n  check_command = "dummy"\n  vars.cloudchecks_fleet = true\n${vars({
            cloudchecks_vcd_url: url,
            cloudchecks_vcd_user: api.user,
            cloudchecks_vcd_org: api.org,
            cloudchecks_vcd_password_file: api.passwordFile,
            cloudchecks_ca_file: caFile,
            cloudchecks_icinga_user: 'cloudchecks-fleet',
            cloudchecks_icinga_password_file: apiPasswordFile,
            cloudchecks_icinga_ca_file: '__CA__',
            cloudchecks_vm_fleet_services: 'cpu,mem,disk,snapshot',
          })}\n  vars.cloudchecks_icinga_url = {{ "https://127.0.0.1:" + get_object(ApiListener, "api").bind_port }}\n}`,
          `object ApiUser "cloudchecks-fleet" {\n  password = ${JSON.stringify(API_PASSWORD)}\n  permissions = [ "actions/process-check-result", "objects/query/Host", "objects/query/Service" ]\n}`,
          // On-call: every notification of every service, appended to a file.
          'object NotificationComponent "notification" {}',
          'object User "oncall" { enable_notifications = true }',
          // One line each: host!service TYPE STATE and the first line of the output.
          `object NotificationCommand "append" {\n  command = [ "/bin/sh", "-c", "printf '%s %s\\\\n' \\"$$NOTE\\" \\"$$(printf '%s' \\"$$OUT\\" | head -n 1)\\" >> ${notes}" ]\n  env = { NOTE = "$host.name$!$service.name$ $notification.type$ $service.state$", OUT = "$service.output$" }\n}`,
          'apply Notification "page" to Service {\n  command = "append"\n  users = [ "oncall" ]\n  interval = 0\n  assign where true\n}',
        ].join('\n'),
      });
      const options = (icinga as unknown as { options: { objects: string } }).options;
      options.objects = options.objects.replace('"__CA__"', JSON.stringify(join(icinga.root, 'data', 'certs', 'ca.crt')));

      const services = async () => {
        const r = (await icinga!.api(
          'GET',
          '/v1/objects/services?attrs=host_name&attrs=name&attrs=state&attrs=state_type&attrs=last_check_result',
        )) as unknown as {
          results: Array<{ attrs: ServiceAttrs }>;
        };
        return r.results.map((x) => x.attrs);
      };
      const measured = (s: ServiceAttrs) => s.host_name.startsWith('vm-') || s.host_name.startsWith('vdc-') || s.host_name.startsWith('pvdc-');
      /** Every VM, VDC and provider VDC service holds a result of its own check (a VM service: the fleet's) ended after `since`. */
      const allFresh = (all: ServiceAttrs[], since: number) =>
        all
          .filter(measured)
          .every(
            (s) => s.last_check_result !== null && s.last_check_result.execution_end > since && !(s.host_name.startsWith('vm-') && s.last_check_result.active),
          );
      const notified = () => readFileSync(notes, 'utf8').split('\n').filter(Boolean);
      const dump = async () =>
        `${notified().join('\n')}\n${(await services()).map((s) => `${s.host_name}!${s.name} ${s.state}/${s.state_type} ${s.last_check_result?.output.split('\n')[0] ?? '-'}`).join('\n')}`;
      /** `until`, whose timeout also names the notifications and every service's state. */
      const waitFor = <T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, ms: number) =>
        until(what, read, done, ms).catch(async (e: Error) => {
          throw new Error(`${e.message.slice(0, 300)}\n${await dump()}`);
        });

      const started = Date.now() / 1000;
      await icinga.start();
      // First start: every service gets its first own result; the new VM services wait for the fleet's.
      const first = await until(
        'every service checked after the first start',
        services,
        (all) => allFresh(all, started),
        3 * scaled('CloudchecksVdcInterval') * 1000,
      );
      for (const kind of ['vm-', 'vdc-', 'pvdc-'])
        expect(
          first.some((s) => s.host_name.startsWith(kind)),
          kind,
        ).toBe(true);
      // The parents as Icinga made them from the shipped rules, "vcd-reachable" found by URL. A VM
      // service has its runner as its only parent: a VM service that also depended on
      // "vcd-reachable" would notify its stale state as soon as vCD was back, before its runner
      // delivered (at the shipped intervals Icinga's one-minute recheck of the children of a
      // recovered parent runs the VM services' staleness check first; scaled, the runner comes
      // first, so the test reads the parents too). "vcd" itself is beneath "vcd-reachable" in every
      // state, only so that Icinga rechecks it whenever "vcd" changes state.
      const deps = (await icinga.api('GET', '/v1/objects/dependencies')) as unknown as {
        results: Array<{ attrs: { child_host_name: string; child_service_name: string; parent_host_name: string; parent_service_name: string } }>;
      };
      const parents = new Map<string, string[]>();
      for (const { attrs: d } of deps.results) {
        const child = `${d.child_host_name}!${d.child_service_name}`;
        parents.set(child, [...(parents.get(child) ?? []), `${d.parent_host_name}!${d.parent_service_name}`].sort());
      }
      for (const s of first) {
        const name = `${s.host_name}!${s.name}`;
        const want = name === 'vcd!vcd-reachable' ? undefined : s.host_name.startsWith('vm-') ? ['vcd-acme-fleet!vm-fleet'] : ['vcd!vcd-reachable'];
        expect(parents.get(name), name).toEqual(want);
      }
      expect(first.find((s) => s.host_name === 'vcd')?.state).toBe(0);
      // The problems measured before the outage, each notified once: the three WARNINGs set above,
      // and the scenario's VM db-03 with its 10-day snapshot (CRITICAL).
      const problemsNow = async () => (await services()).filter((s) => measured(s) && s.state !== 0 && s.last_check_result !== null);
      const preexisting = await waitFor(
        'the problems measured before the outage notified',
        async () => ({ lines: notified(), problems: await problemsNow() }),
        ({ lines, problems }) => problems.length >= 4 && problems.every((p) => lines.some((l) => l.startsWith(`${p.host_name}!${p.name} PROBLEM `))),
        3 * scaled('CloudchecksVdcInterval') * 1000,
      );
      const problemsBefore = preexisting.problems;
      const STATES = ['OK', 'WARNING', 'CRITICAL', 'UNKNOWN'];
      expect(problemsBefore.map((s) => `${s.host_name.split('-')[0]}!${s.name} ${STATES[s.state]}`).sort(), await dump()).toEqual([
        'pvdc!pvdc WARNING',
        'vdc!vdc WARNING',
        'vm!vm-snapshot CRITICAL',
        'vm!vm-snapshot WARNING',
      ]);
      expect(problemsBefore.find((s) => s.state === 1 && s.name === 'vm-snapshot')?.host_name).toBe(oldSnapshotVm);
      expect(preexisting.lines.map((l) => l.split(' ').slice(0, 3).join(' ')).sort(), preexisting.lines.join('\n')).toEqual(
        problemsBefore.map((s) => `${s.host_name}!${s.name} PROBLEM ${STATES[s.state]}`).sort(),
      );
      const atBreak = preexisting.lines.length;

      // vCD stops for longer than the VM services' staleness window (two runner intervals), and
      // it stops while check_vcd is half-way through the cells answer (the relay resets the
      // connection). check_vcd must say CRITICAL in that run: an UNKNOWN first would page twice
      // and hold nothing back meanwhile.
      await closeWhileCellsRead(relay, api.httpUrl, 10 * scaled('CloudchecksVcdInterval') * 1000);
      const broken = Date.now() / 1000;
      const staleness = 2 * scaled('CloudchecksFleetInterval');
      /** A VDC or provider VDC run while vCD is down: its problem state kept (--last-state), or UNKNOWN where it was OK. */
      const keptOrFailed = (s: ServiceAttrs, output: string) => {
        const was = problemsBefore.find((w) => w.host_name === s.host_name && w.name === s.name);
        return was
          ? s.state === was.state && / is not answering: connection refused by .*the last result's state is kept/.test(output)
          : s.state === 3 && / - connection refused by /.test(output);
      };
      // Every VM service goes stale, and every VDC and provider VDC is checked and fails: UNKNOWN
      // where it was OK, its state kept (--last-state) where it held a problem measured before.
      await waitFor(
        'every VM service stale and every VDC and provider VDC failing while vCD is down',
        services,
        (all) =>
          all
            .filter(measured)
            .every((s) =>
              s.host_name.startsWith('vm-')
                ? s.last_check_result?.active === true && s.last_check_result.output.startsWith('no result from check_vm_fleet since')
                : s.last_check_result !== null && s.last_check_result.execution_end > broken && keptOrFailed(s, s.last_check_result.output),
            ),
        4 * staleness * 1000,
      );
      await sleep(Math.max(0, (broken + 1.5 * staleness) * 1000 - Date.now()));
      const down = await services();
      expect(down.find((s) => s.host_name === 'vcd')?.state).toBe(2);

      // vCD is back: on until every VM, VDC and provider VDC service holds a fresh result, then one more runner interval.
      await relay.open();
      const back = Date.now() / 1000;
      await until('every service fresh after the recovery', services, (all) => allFresh(all, back), 4 * scaled('CloudchecksVdcInterval') * 1000).catch(
        async (e: Error) => {
          throw new Error(`${e.message.slice(0, 300)}\n${await dump()}`);
        },
      );
      await sleep(scaled('CloudchecksFleetInterval') * 1000);

      const lines = notified().slice(atBreak);
      const problems = lines.filter((l) => / PROBLEM /.test(l));
      const recoveries = lines.filter((l) => / RECOVERY /.test(l));
      console.log(
        `Icinga 2 outage day: ${atBreak} notification(s) at first start (the problems measured before), ${lines.length} from the break through the recovery (${Math.round(Date.now() / 1000 - started)} s)`,
      );
      // The one problem is the reset mid-answer, in the run that was reading.
      expect(problems, await dump()).toEqual([
        expect.stringMatching(/^vcd!vcd PROBLEM CRITICAL VCD CRITICAL - vCD at \S+ is not answering: connection to \S+ (was reset|closed) before/),
      ]);
      expect(recoveries.length, lines.join('\n')).toBeLessThanOrEqual(1);
      expect(
        lines.filter((l) => !l.startsWith('vcd!vcd ')),
        await dump(),
      ).toEqual([]);
      // The problems measured before the outage are what they were, measured again.
      const after = await services();
      for (const w of problemsBefore) {
        const s = after.find((x) => x.host_name === w.host_name && x.name === w.name);
        expect(`${w.host_name}!${w.name} ${s?.state} ${s?.last_check_result?.output.split('\n')[0]}`).toMatch(
          new RegExp(` ${w.state} \\S+ ${STATES[w.state]} - `),
        );
      }

      // The rejected-password day: vCD refuses check_vcd's own account, and a VDC's memory climbs
      // to 97 % of its limit (the simulator's control call) while the login is refused.
      const before = notified().length;
      const vdcHost = first.find((s) => s.name === 'vdc' && s.host_name.startsWith('vdc-') && s.last_check_result?.output.includes('acme-prod'))?.host_name;
      expect(vdcHost, 'the VDC acme-prod').toBeDefined();
      writeFileSync(vcdPasswordFile, 'rotated-at-vcd\n');
      const refused = Date.now() / 1000;
      // The VDC climbs once check_vcd has said the login is refused (its next run, 1 min scaled):
      // on a loaded host the VDC's own check could otherwise page first, before the refusal is known.
      const vcdOutput = async () => (await services()).find((s) => s.host_name === 'vcd' && s.name === 'vcd')?.last_check_result?.output ?? '';
      const loginRefused = /^VCD CRITICAL - login to \S+ as \S+ rejected \(HTTP 401/;
      await waitFor('check_vcd CRITICAL for the refused login', vcdOutput, (o) => loginRefused.test(o), 10 * scaled('CloudchecksVcdInterval') * 1000);
      await simControl('/_sim/vcd/vdc?vdc=acme-prod&memory=97');
      const since = () => notified().slice(before);
      // The VDC pages while vCD still refuses check_vcd's login: a refused login holds nothing back.
      await waitFor(
        'the VDC at 97 % of its memory notified',
        async () => since(),
        (l) => l.some((x) => x.startsWith(`${vdcHost}!vdc PROBLEM CRITICAL`)),
        4 * scaled('CloudchecksVdcInterval') * 1000,
      );
      expect(await vcdOutput()).toMatch(loginRefused);
      // Refused for longer than the VM services' staleness window.
      await sleep(Math.max(0, (refused + 1.5 * staleness) * 1000 - Date.now()));
      writeFileSync(vcdPasswordFile, readFileSync(api.passwordFile));
      await simControl('/_sim/vcd/vdc?vdc=acme-prod&memory=40');
      const fixed = Date.now() / 1000;
      await waitFor('every service fresh after the password was fixed', services, (all) => allFresh(all, fixed), 4 * scaled('CloudchecksVdcInterval') * 1000);
      await sleep(scaled('CloudchecksFleetInterval') * 1000);
      const day = since();
      console.log(`Icinga 2 rejected-password day: ${day.length} notification(s) through the fix (${Math.round(Date.now() / 1000 - refused)} s)`);
      const own = day.filter((l) => l.startsWith('vcd!vcd '));
      expect(
        own.filter((l) => / PROBLEM /.test(l)),
        day.join('\n'),
      ).toEqual([expect.stringMatching(/^vcd!vcd PROBLEM CRITICAL VCD CRITICAL - login to \S+ as \S+ rejected/)]);
      expect(own.filter((l) => / RECOVERY /.test(l)).length, day.join('\n')).toBeLessThanOrEqual(1);
      // Beside check_vcd, only the VDC that was really full: its problem, and its recovery.
      expect(
        day.filter((l) => !l.startsWith('vcd!vcd ')).map((l) => l.split(' ').slice(0, 3).join(' ')),
        await dump(),
      ).toEqual([`${vdcHost}!vdc PROBLEM CRITICAL`, `${vdcHost}!vdc RECOVERY OK`]);
    },
  );
});
