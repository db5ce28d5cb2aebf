import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { runExecutable } from '../../support/spawn';
import { sleep, until } from './engines';
import type { CheckResult } from './icinga2';
import { assertBuilt, BuiltSimulator, DIST } from './simulator';

/** The password of the fleet's Icinga 2 ApiUser in the fleet tests. */
export const API_PASSWORD = 'fleet-api-Pa55word';

/**
 * What a fleet test file works with: the simulator (default scenario), a work directory whose
 * name starts with `prefix`, and the ApiUser's password in a file there; started by the file's
 * beforeAll and removed by its afterAll.
 */
export function fleetWorkspace(prefix: string): { sim: BuiltSimulator; work: string; apiPasswordFile: string } {
  const sim = new BuiltSimulator([]);
  const work = mkdtempSync(join(tmpdir(), prefix));
  const apiPasswordFile = join(work, 'api.password');
  beforeAll(async () => {
    assertBuilt();
    await sim.start();
    writeFileSync(apiPasswordFile, `${API_PASSWORD}\n`, { mode: 0o600 });
  }, 30_000);
  afterAll(async () => {
    await sim.stop();
    rmSync(work, { recursive: true, force: true });
  });
  return { sim, work, apiPasswordFile };
}

/**
 * What one check_vm_fleet run says of each VM service it read, from its --output json:
 * host!service -> state (powered-off VMs OK, as the contrib runners and VM hosts have them).
 */
export async function fleetStates(vcdArgs: readonly string[], cacheDir: string, home: string): Promise<Map<string, number>> {
  const r = await runExecutable(
    join(DIST, 'check_vm_fleet'),
    [...vcdArgs, '--cache-dir', cacheDir, '--powered-off-state', 'OK', '--output', 'json', '-t', '30'],
    {
      env: { PATH: process.env.PATH, HOME: home },
    },
  );
  const doc = JSON.parse(r.stdout) as { vms: Record<string, { read: boolean; cpu: { code: number }; mem: { code: number }; disk: { code: number } }> };
  const out = new Map<string, number>();
  for (const [id, vm] of Object.entries(doc.vms)) {
    if (!vm.read) continue;
    out.set(`${id}!vm-cpu`, vm.cpu.code);
    out.set(`${id}!vm-memory`, vm.mem.code);
    out.set(`${id}!vm-disk`, vm.disk.code);
  }
  return out;
}

/** A file the notifications of an engine are appended to, one line each: "host!service TYPE STATE output". */
export class NotificationLog {
  constructor(
    readonly file: string,
    /** The runner host whose notifications count beside the VM hosts'. */
    private readonly runner = 'vcd-acme-fleet',
  ) {
    writeFileSync(file, '');
  }

  lines(): string[] {
    return readFileSync(this.file, 'utf8').split('\n').filter(Boolean);
  }

  /** Icinga 2 objects that notify a user of every state change of every service, at once, into this file. */
  icingaConfig(): string {
    return `object User "oncall" { enable_notifications = true }
object NotificationCommand "append" {
  command = [ "/bin/sh", "-c", "printf '%s\\\\n' \\"$$NOTE\\" >> ${this.file}" ]
  env = { NOTE = "$host.name$!$service.name$ $notification.type$ $service.state$ $service.output$" }
}
apply Notification "page" to Service {
  command = "append"
  users = [ "oncall" ]
  interval = 0
  assign where true
}
`;
  }

  /** The notifications of the VM hosts and the runner since line `from`, counted by host!service (not the stock config's own). */
  countsSince(from: number): Map<string, number> {
    const out = new Map<string, number>();
    for (const line of this.lines().slice(from)) {
      const key = line.split(' ')[0];
      if (!key.startsWith('vm-') && !key.startsWith(`${this.runner}!`)) continue;
      out.set(key, (out.get(key) ?? 0) + 1);
    }
    return out;
  }
}

/** What the bad-day cases read of each Icinga 2 service. */
export type FleetServiceAttrs = {
  state: number;
  state_type: number;
  last_hard_state_change: number;
  last_check_result: (CheckResult & { active: boolean; execution_end: number; check_source: string }) | null;
};
/** The REST API path that reads FleetServiceAttrs of every service. */
export const FLEET_SERVICE_ATTRS = '/v1/objects/services?attrs=state&attrs=state_type&attrs=last_hard_state_change&attrs=last_check_result';

/** A VM service's result is vm-fleet.conf's stale dummy. */
const isStale = (x: FleetServiceAttrs | undefined) =>
  x?.last_check_result?.active === true && x.last_check_result.output.startsWith('no result from check_vm_fleet');

/**
 * Polls `read` (host!service -> attributes) until every one of `vmServices` is stale; then,
 * after one more interval for late notifications, holds what the first bad day must give in
 * Icinga 2: the runner HARD UNKNOWN naming the login, since `broken` (s) and before the first VM
 * service went stale; a VM service's stale text pointing at it; and, of `notes` since line
 * `before`, one notification, the runner's. Returns the last reading.
 */
export async function expectOnlyTheRunnerNotifies(
  read: () => Promise<Map<string, FleetServiceAttrs>>,
  o: { runner: string; vmServices: string[]; broken: number; intervalS: number; notes: NotificationLog; before: number; log: () => string },
): Promise<Map<string, FleetServiceAttrs>> {
  const staleSince = new Map<string, number>();
  const all = await until(
    'every VM service stale',
    async () => {
      const now = await read();
      for (const k of o.vmServices) if (!staleSince.has(k) && isStale(now.get(k))) staleSince.set(k, now.get(k)!.last_check_result!.execution_end);
      return now;
    },
    (now) => o.vmServices.every((k) => isStale(now.get(k))),
    8 * o.intervalS * 1000,
  ).catch((e: Error) => {
    throw new Error(`${e.message.slice(0, 300)}\n${o.log()}`);
  });
  // One more interval for late notifications.
  await sleep(o.intervalS * 1000);
  const runner = all.get(`${o.runner}!vm-fleet`)!;
  expect(runner.state_type, JSON.stringify(runner)).toBe(1);
  expect(runner.state).toBe(3);
  expect(runner.last_check_result!.output).toMatch(/^VM_FLEET UNKNOWN - .*(login|password|401)/i);
  expect(runner.last_hard_state_change).toBeGreaterThan(o.broken);
  expect(runner.last_hard_state_change, 'the runner is HARD before the first VM service is stale').toBeLessThan(Math.min(...staleSince.values()));
  const one = all.get(o.vmServices[0])!;
  expect(one.state).toBe(3);
  expect(one.last_check_result!.output).toMatch(
    new RegExp(
      `^no result from check_vm_fleet since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d [+-]\\d{4}; runner ${o.runner}!vm-fleet UNKNOWN: VM_FLEET UNKNOWN - `,
    ),
  );
  const counts = o.notes.countsSince(o.before);
  expect(Object.fromEntries(counts)).toEqual({ [`${o.runner}!vm-fleet`]: 1 });
  console.log(
    `Icinga 2: ${counts.get(`${o.runner}!vm-fleet`)} notification(s) for ${o.vmServices.length} VM services and their runner after a broken password`,
  );
  return all;
}
