// A powered-off VM in --powered-off-state: the perfdata of what it consumes (zero), never U, which
// Icinga 2 drops as invalid and Zabbix cannot store in a numeric item.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Notes } from '../../../../lib/plugin/notes';
import { renderNagios } from '../../../../lib/plugin/result';
import { ScalarContext } from '../../../../lib/plugin/scalar-context';
import { State } from '../../../../lib/plugin/state';
import type { VmCheckProfile } from '../../../../lib/vcd/vm/profile';
import type { VmCheckConfig } from '../../../../lib/vcd/vm/vm-config';
import { judge } from '../../../../lib/vcd/vm/vm-judge';
import { CPU_PROFILE } from '../../../../plugins/check_vm_cpu/profile';
import { DISK_PROFILE } from '../../../../plugins/check_vm_disk/profile';
import { MEM_PROFILE } from '../../../../plugins/check_vm_mem/profile';

const VM = 'vm-0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e';
const fixture = (name: string) => readFileSync(join(__dirname, '../../../fixtures/vcd', name), 'utf8');
const context = {
  notes: new Notes(),
  verbose: 0,
  signal: new AbortController().signal,
  deadline: Date.now() + 10_000,
  timeoutSeconds: 10,
  log: () => undefined,
  addSecret: () => undefined,
  setPhase: () => undefined,
};
const get = async () => ({
  status: 200,
  headers: {},
  body: Buffer.from(fixture('vm-powered-off.xml')),
  url: new URL(`https://vcd.example.com/api/vApp/${VM}`),
});

function config(profile: VmCheckProfile, metric: string, poweredOff: State): VmCheckConfig {
  const d = profile.defaultThresholds(metric);
  return {
    metric,
    perDisk: false,
    base: new URL('https://vcd.example.com'),
    thresholds: ScalarContext.fromOptions(d, profile.thresholdParser?.(metric)),
    aggregate: 'avg',
    poweredOff,
    poweredOffGiven: true,
    target: { kind: 'id', id: VM } as never,
    vm: VM,
    vmLabel: VM,
  };
}

async function offLine(profile: VmCheckProfile, metric: string, state = State.OK): Promise<string> {
  const refused = { kind: 'refused' as const, detail: 'HTTP 400: not running' };
  const result = await judge(profile, config(profile, metric, state), context, refused, get, 'https://vcd.example.com/x');
  return renderNagios(profile.name, result).split('\n')[0];
}

describe('powered off, current metrics refused', () => {
  it('prints its consumption as zero with the running thresholds, and leaves out what is unknown while off', async () => {
    expect(await offLine(CPU_PROFILE, 'average')).toBe(
      `VM_CPU OK - ${VM} is powered off: no current metrics (use --window for the last values) | cpu_usage=0%;80;90;0;100 cpu_usage_max=0%;;;0;100 cpu_mhz=0;;;0`,
    );
    expect(await offLine(MEM_PROFILE, '', State.WARNING)).toBe(
      `VM_MEM WARNING - ${VM} is powered off: no current metrics (use --window for the last values) | mem_usage=0%;80;90;0;100`,
    );
    // A disk's use is not known without metrics: no value rather than U.
    expect(await offLine(DISK_PROFILE, 'percent')).toBe(`VM_DISK OK - ${VM} is powered off: no current metrics (use --window for the last values)`);
    expect(await offLine(DISK_PROFILE, 'used')).not.toContain('|');
  });
});
