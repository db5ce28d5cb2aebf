// Each VM of a fleet judged by the three single checks' profiles from its one answer.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckError } from '../../../../lib/plugin/errors';
import { parsePluginOptions } from '../../../../lib/plugin/options';
import { State } from '../../../../lib/plugin/state';
import { judgeFleetVm, unreadFleetVm, vmState, type FleetJudging } from '../../../../lib/vcd/fleet/fleet-judge';
import { configureFleet } from '../../../../plugins/check_vm_fleet/config';
import { FLEET_CHECK_OPTIONS } from '../../../../plugins/check_vm_fleet/options';

const VM = { id: 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70', name: 'web\n01', vapp: 'shop', status: 'POWERED_ON', template: false };
const fixture = (name: string) => readFileSync(join(__dirname, '../../../fixtures/vcd', name), 'utf8');
const context = {
  signal: new AbortController().signal,
  deadline: Date.now() + 10_000,
  timeoutSeconds: 10,
  setPhase: () => undefined,
  addSecret: () => undefined,
};
const noRead = async () => {
  throw new Error('no record read expected');
};

function judging(argv: string[] = []): FleetJudging {
  const { options } = parsePluginOptions(['-u', 'https://vcd.example.com', ...argv], FLEET_CHECK_OPTIONS);
  return { judges: configureFleet(options).judges, origin: 'https://vcd.example.com', context, after: (r) => r };
}

describe('judgeFleetVm', () => {
  it("says each service in the single check's words: status line, perfdata, long output, and the --output json object", async () => {
    const vm = await judgeFleetVm(judging(), VM, { kind: 'document', body: fixture('current-usage.xml') }, noRead);
    expect(vm).toMatchObject({ id: VM.id, name: 'web\n01', vapp: 'shop', status: 'POWERED_ON', read: true });
    expect(vm.services.cpu!.text).toMatch(new RegExp(`^VM_CPU OK - cpu usage [\\d.]+% \\(current\\) on ${VM.id} \\| cpu_usage=[\\d.]+%;80;90;0;100 `));
    expect(vm.services.mem!.text).toMatch(
      /^VM_MEM \w+ - memory usage [\d.]+% \(current\) on vm-.* \| mem_usage=[\d.]+%;80;90;0;100\n\[\w+\] mem\.usage\.average = /,
    );
    expect(vm.services.disk!.json).toMatchObject({ name: 'VM_DISK', code: vm.services.disk!.code, summary: expect.stringMatching(/^disk used /) });
    // The parts an engine takes are rendered once, and are the text's own.
    const { output, perfdata, longOutput } = vm.services.cpu!.parts;
    expect(output).toMatch(/^VM_CPU OK - cpu usage/);
    expect(perfdata[0]).toMatch(/^cpu_usage=/);
    expect(longOutput.slice(0, 2).join('\n')).toMatch(/^\[OK\] cpu\.usage\.average = .*\n\[OK\] cpu\.usage\.maximum/);
    for (const s of Object.values(vm.services))
      expect([`${s.parts.output} | ${s.parts.perfdata.join(' ')}`, ...s.parts.longOutput].join('\n') + '\n').toBe(s.text);
  });

  it('takes each service its own prefixed options', async () => {
    const vm = await judgeFleetVm(
      judging(['--cpu-warning', '0', '--mem-critical', '1', '--disk-metric', 'used', '--disk-warning', '1G']),
      VM,
      { kind: 'document', body: fixture('current-usage.xml') },
      noRead,
    );
    expect(vm.services.cpu!.code).toBe(State.WARNING);
    expect(vm.services.mem!.code).toBe(State.CRITICAL);
    expect(vm.services.disk!.text).toMatch(/^VM_DISK WARNING - disk used .* \| disk_used=\d+B;1073741824;;0;/);
    expect(vmState(vm)).toBe(State.CRITICAL);
  });

  it('a VM without an answer is UNKNOWN in every service with the cause, as the single checks say it', async () => {
    const vm = await judgeFleetVm(judging(), VM, new CheckError(`${VM.id}: VM not found or not visible`), noRead);
    for (const s of Object.values(vm.services)) expect(s.text).toMatch(new RegExp(`^VM_(CPU|MEM|DISK) UNKNOWN - ${VM.id}: VM not found or not visible\\n$`));
  });

  it('a VM not read is UNKNOWN saying why, and marked as not read', () => {
    const vm = unreadFleetVm(judging(), VM, 'metrics not read within -t 10s by check_vm_fleet');
    expect(vm.read).toBe(false);
    expect(vm.services.disk!.text).toBe(`VM_DISK UNKNOWN - ${VM.id}: metrics not read within -t 10s by check_vm_fleet\n`);
  });

  it("a powered-off VM is judged in its own inventory host's state where it has one, the others in --powered-off-state", async () => {
    const record = async () => ({
      status: 200,
      headers: {},
      body: Buffer.from(fixture('vm-powered-off.xml')),
      url: new URL(`https://vcd.example.com/api/vApp/${VM.id}`),
    });
    const refused = { kind: 'refused' as const, detail: 'HTTP 400: not running' };
    const other = { ...VM, id: 'vm-00000000-0000-4000-8000-000000000001' };
    const j = { ...judging(['--powered-off-state', 'OK']), poweredOff: new Map([[VM.id, State.CRITICAL]]) };
    const own = await judgeFleetVm(j, VM, refused, record);
    for (const s of Object.values(own.services)) expect(s.text).toMatch(/^VM_(CPU|MEM|DISK) CRITICAL - .* is powered off: no current metrics/);
    const rest = await judgeFleetVm(j, other, refused, record);
    for (const s of Object.values(rest.services)) expect(s.code).toBe(State.OK);
  });

  it('a bad threshold is named as the fleet takes it', () => {
    expect(() => judging(['--cpu-warning', '10:5'])).toThrow(/invalid range "10:5" for --cpu-warning/);
    expect(() => judging(['--snapshot-size-warning', '50G'])).toThrow(/invalid range "50G" for --snapshot-size-warning/);
    expect(() => judging(['--lease-warning', '80'])).toThrow(/--lease-warning/);
    expect(() => judging(['--tools-outdated-state', 'BAD'])).toThrow();
  });
});

describe('--services', () => {
  const HYGIENE = {
    toolsStatus: 'toolsOld',
    toolsVersion: 11265,
    snapshot: false,
    autoUndeployDate: new Date(Date.now() + 36 * 3600_000).toISOString(),
    autoDeleteDate: new Date(Date.now() + 30 * 86400_000).toISOString(),
  };

  it('selects the services in their order, each validated; an unknown one is refused naming the known', () => {
    expect(judging().judges.map((j) => j.service)).toEqual(['cpu', 'mem', 'disk']);
    expect(judging(['--services', 'lease,tools,cpu']).judges.map((j) => j.service)).toEqual(['cpu', 'tools', 'lease']);
    const { options } = parsePluginOptions(['-u', 'https://vcd.example.com', '--services', 'snapshot,tools'], FLEET_CHECK_OPTIONS);
    const cfg = configureFleet(options);
    expect([cfg.which, cfg.hygiene]).toEqual([undefined, true]);
    expect(() => judging(['--services', 'cpu,snapshots'])).toThrow(
      /invalid --services "cpu,snapshots": "snapshots" is none of cpu, mem, disk, snapshot, tools, lease/,
    );
  });

  it("judges the hygiene services from the VM's record, in the single checks' words, without a request when the record says it all", async () => {
    const vm = await judgeFleetVm(
      judging(['--services', 'snapshot,tools,lease', '--tools-outdated-state', 'CRITICAL']),
      { ...VM, hygiene: HYGIENE },
      undefined,
      noRead,
    );
    expect(Object.keys(vm.services)).toEqual(['snapshot', 'tools', 'lease']);
    expect(vm.services.snapshot!.text).toBe(
      `VM_SNAPSHOT OK - no snapshot on ${VM.id} | snapshots=0;;;0 snapshot_age=0s;259200;604800;0 snapshot_size=0B;;;0\n`,
    );
    expect(vm.services.tools!.text).toMatch(new RegExp(`^VM_TOOLS CRITICAL - VMware Tools running but out of date, version 11265 on ${VM.id} `));
    expect(vm.services.lease!.code).toBe(State.CRITICAL);
    expect(vm.services.lease!.json).toMatchObject({ name: 'VM_LEASE', summary: expect.stringMatching(/^runtime lease expires in 1d 11h/) });
    expect(vmState(vm)).toBe(State.CRITICAL);
  });

  it("Tools of a powered-off VM take its own inventory host's state where it has one, the others --powered-off-state; snapshots and leases are judged whatever the power", async () => {
    const j = {
      ...judging(['--services', 'snapshot,tools,lease', '--powered-off-state', 'OK']),
      poweredOff: new Map([[VM.id, State.CRITICAL]]),
    };
    const off = { ...VM, status: 'POWERED_OFF', hygiene: HYGIENE };
    const own = await judgeFleetVm(j, off, undefined, noRead);
    expect(own.services.tools!.text).toMatch(new RegExp(`^VM_TOOLS CRITICAL - ${VM.id} is powered off: VMware Tools do not run`));
    expect(own.services.snapshot!.code).toBe(State.OK);
    expect(own.services.lease!.code).toBe(State.CRITICAL);
    const other = await judgeFleetVm(j, { ...off, id: 'vm-00000000-0000-4000-8000-000000000001' }, undefined, noRead);
    expect(other.services.tools!.code).toBe(State.OK);
    expect(other.services.lease!.code).toBe(State.CRITICAL);
    // A running VM's Tools are judged as they are, whatever its inventory host says of it powered off.
    const on = await judgeFleetVm(j, { ...VM, hygiene: HYGIENE }, undefined, noRead);
    expect(on.services.tools!.text).toMatch(/^VM_TOOLS WARNING - VMware Tools running but out of date/);
  });

  it('a section that cannot be read makes that service UNKNOWN, the others judged', async () => {
    const failing = async () => ({ status: 500, headers: {}, body: Buffer.from('no'), url: new URL('https://vcd.example.com/') });
    const vm = await judgeFleetVm(judging(['--services', 'snapshot,tools']), { ...VM, hygiene: { ...HYGIENE, snapshot: true } }, undefined, failing);
    expect(vm.services.snapshot!.text).toMatch(/^VM_SNAPSHOT UNKNOWN - GET \/api\/vApp\/vm-[0-9a-f-]+\/snapshotSection answered HTTP 500/);
    expect(vm.services.tools!.code).toBe(State.WARNING);
  });
});
