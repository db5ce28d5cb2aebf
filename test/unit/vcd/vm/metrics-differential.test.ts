// The spec (POST of the window and the metrics judged) against the whole day (GET) on the same
// simulated documents at the same instant: every verdict, summary, perfdata and note the same,
// for the single checks and the fleet, whatever the VM (busy, stopped, powered off, per-disk
// only, odd intervals, samples from the future, broken values).
import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../../../../lib/http/request';
import { Notes } from '../../../../lib/plugin/notes';
import { renderNagios } from '../../../../lib/plugin/result';
import { failureResult } from '../../../../lib/plugin/run';
import { judgeFleetVm, type FleetJudging } from '../../../../lib/vcd/fleet/fleet-judge';
import type { VmCheckProfile } from '../../../../lib/vcd/vm/profile';
import { configureVmCheck, type ProfileChoice } from '../../../../lib/vcd/vm/vm-config';
import { judge } from '../../../../lib/vcd/vm/vm-judge';
import { askOf, readMetrics, unionAsk, type MetricsAsk } from '../../../../lib/vcd/vm/vm-metrics';
import { CPU_PROFILE } from '../../../../plugins/check_vm_cpu/profile';
import { DISK_PROFILE } from '../../../../plugins/check_vm_disk/profile';
import { MEM_PROFILE } from '../../../../plugins/check_vm_mem/profile';
import { currentUsage, errorDocument, historicUsage } from '../../../../sim/vcd/documents';
import { scenarioFleet } from '../../../../sim/vcd/fleet';
import { readUsageSpec } from '../../../../sim/vcd/usage-spec';
import { currentRefusal, vmRecordDocument } from '../../../../sim/vcd/vm-records';
import type { SimVm } from '../../../../sim/vcd/vms';
import { testConnection } from '../../../support/vcd-connection';

const BASE = 'https://vcd.example.com';
// Whole seconds: the Date header, which the judgement takes for "now", has no more.
const NOW = Math.floor(Date.parse('2026-11-26T15:07:33Z') / 1000) * 1000;
const style = { prefix: '', base: BASE };

const reply = (status: number, body: string): HttpResponse => ({
  status,
  headers: { date: new Date(NOW).toUTCString() },
  body: Buffer.from(body),
  url: new URL(BASE),
});

/** What the simulator answers, at NOW: GET of metrics (the whole day) and the VM's record, POST of a spec (what it asks). */
function server(vm: SimVm) {
  const metrics = (which: string, filter?: Parameters<typeof historicUsage>[3]) => {
    if (which === 'historic') return reply(200, historicUsage(style, vm, NOW, filter));
    const refusal = currentRefusal(vm);
    return refusal ? reply(400, errorDocument(style, 400, refusal.minor, refusal.message)) : reply(200, currentUsage(style, vm, NOW, filter));
  };
  const requests: string[] = [];
  return {
    requests,
    get: async (path: string) => {
      requests.push(`GET ${path}`);
      const m = /\/metrics\/(current|historic)$/.exec(path);
      return m ? metrics(m[1]) : reply(200, vmRecordDocument(BASE, '', vm));
    },
    post: async (path: string, body: string, type: string) => {
      requests.push(`POST ${path}`);
      const which = path.endsWith('historic') ? 'historic' : 'current';
      const read = readUsageSpec(which, type, body, NOW);
      if (!('filter' in read)) throw new Error(`the simulator refused the spec: ${read.message}`);
      return metrics(which, read.filter);
    },
  };
}

const quiet = () => ({
  notes: new Notes(),
  verbose: 0,
  signal: new AbortController().signal,
  deadline: Date.now() + 60_000,
  timeoutSeconds: 60,
  log: () => undefined,
  addSecret: () => undefined,
  setPhase: () => undefined,
});

/** What the check prints for `vm`, read by the spec or by GET. */
async function checkOutput(vm: SimVm, profile: VmCheckProfile, choice: ProfileChoice, options: Record<string, string>, bySpec: boolean) {
  const cfg = { ...configureVmCheck(profile, { url: BASE, vm: vm.id, ...options } as never, choice), vm: vm.id, vmLabel: vm.id };
  const srv = server(vm);
  const context = quiet();
  const req = { conn: testConnection(BASE), creds: { kind: 'password', user: 'u', org: 'o', password: 'p' } as const, log: () => undefined };
  const ask = askOf(profile, cfg);
  let text: string;
  try {
    const response = await readMetrics(req, { id: vm.id }, srv.get, ask.which, undefined, bySpec ? { ask, post: srv.post } : undefined);
    text = renderNagios(profile.name, await judge(profile, cfg, context, response, srv.get, `${BASE}/api/vApp/${vm.id}/metrics/current`));
  } catch (error) {
    text = renderNagios(profile.name, failureResult(error, 0));
  }
  return { text: `${text}\nnotes: ${context.notes.all.join(' | ')}`, requests: srv.requests };
}

const CHECKS: Array<[VmCheckProfile, ProfileChoice]> = [
  [CPU_PROFILE, { metric: 'average', perDisk: false }],
  [CPU_PROFILE, { metric: 'maximum', perDisk: false }],
  [CPU_PROFILE, { metric: 'mhz', perDisk: false }],
  [MEM_PROFILE, { metric: '', perDisk: false }],
  [DISK_PROFILE, { metric: 'used', perDisk: false }],
  [DISK_PROFILE, { metric: 'used', perDisk: true }],
  [DISK_PROFILE, { metric: 'read', perDisk: false }],
];
const OPTIONS: Array<Record<string, string>> = [
  {},
  { window: '5m' },
  { window: '15m' },
  { window: '30m', aggregate: 'max' },
  { window: '1h' },
  { window: '1h', aggregate: 'last', 'max-age': '2h' },
  { window: '6h', aggregate: 'min' },
  { window: '15m', 'powered-off-state': 'OK' },
];

const DEFAULT_VMS = scenarioFleet('default').vms;

describe('the spec and the GET give the same result', () => {
  it.each(DEFAULT_VMS.map((vm) => [vm.name, vm] as const))('%s: every VM check, every window', async (_name, vm) => {
    for (const [profile, choice] of CHECKS) {
      for (const options of OPTIONS) {
        const bySpec = await checkOutput(vm, profile, choice, options, true);
        const byGet = await checkOutput(vm, profile, choice, options, false);
        expect(bySpec.text, `${profile.command} ${JSON.stringify(choice)} ${JSON.stringify(options)}`).toBe(byGet.text);
        expect(bySpec.requests.some((r) => r.startsWith('POST'))).toBe(true);
      }
    }
  });

  it('a VM whose samples are fresh costs one request: the window, not the day', async () => {
    const healthy = DEFAULT_VMS.find((vm) => vm.role === 'healthy')!;
    const { requests } = await checkOutput(healthy, CPU_PROFILE, { metric: 'average', perDisk: false }, { window: '15m' }, true);
    expect(requests).toEqual([`POST /api/vApp/${healthy.id}/metrics/historic`]);
  });

  it.each([undefined, '15m', '1h'])('the fleet (--window %s): each VM judged by its three checks alike', async (window) => {
    const vms = scenarioFleet('fleet').vms.slice(0, 60);
    const options = window === undefined ? {} : { window };
    const judges = (
      [
        ['cpu', CPU_PROFILE, { metric: 'average', perDisk: false }],
        ['mem', MEM_PROFILE, { metric: '', perDisk: false }],
        ['disk', DISK_PROFILE, { metric: 'used', perDisk: false }],
      ] as const
    ).map(([service, profile, choice]) => ({ service, profile, cfg: configureVmCheck(profile, { url: BASE, discovery: true, ...options } as never, choice) }));
    const ask: MetricsAsk = unionAsk(judges.map((j) => askOf(j.profile, j.cfg)));
    const judging: FleetJudging = { judges, origin: BASE, context: quiet(), after: (r) => r };
    for (const vm of vms) {
      const record = { id: vm.id, name: vm.name, vapp: 'v', status: 'POWERED_ON', template: false };
      const results = [];
      for (const bySpec of [true, false]) {
        const srv = server(vm);
        const req = { conn: testConnection(BASE), creds: { kind: 'password', user: 'u', org: 'o', password: 'p' } as const, log: () => undefined };
        const answer = await readMetrics(req, { id: vm.id }, srv.get, ask.which, undefined, bySpec ? { ask, post: srv.post } : undefined);
        const judged = await judgeFleetVm(judging, record, answer, srv.get);
        results.push(Object.values(judged.services).map((s) => s.text));
      }
      expect(results[0], vm.name).toEqual(results[1]);
    }
  });
});
