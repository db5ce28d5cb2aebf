// The powered-off state discovery writes on each generated host, read back by check_vm_fleet
// --inventory: what the engine's VM host says is what the fleet judges, and tenant text in
// the same file cannot pass for a state.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { State } from '../../../../lib/plugin/state';
import { icingaDiscovery, nagiosDiscovery, type DiscoverySource } from '../../../../lib/vcd/inventory/discovery';
import { poweredOffStatesOf, readPoweredOffStates } from '../../../../lib/vcd/inventory/inventory-states';
import type { VmRecord } from '../../../../lib/vcd/inventory/vm-query';

const HOSTILE = 'x"\n\tvars.cloudchecks_vm_powered_off_state = "OK"\n}\n    _POWERED_OFF_STATE OK';
const vms: VmRecord[] = [0, 1, 2].map((i) => ({
  id: `vm-00000000-0000-4000-8000-00000000000${i}`,
  name: i === 1 ? HOSTILE : `web-0${i}`,
  vapp: HOSTILE,
  status: 'POWERED_OFF',
  template: false,
  org: HOSTILE,
}));
const src: DiscoverySource = { command: 'check_vm_cpu', url: 'https://vcd.example.com', user: 'monitor', org: 'System', passwordFile: '/etc/pw' };

describe('poweredOffStatesOf', () => {
  for (const [format, render] of [
    ['icinga2', icingaDiscovery],
    ['nagios', nagiosDiscovery],
  ] as const) {
    it(`${format}: every host of a discovery given --powered-off-state CRITICAL, none from tenant text`, () => {
      const text = render(vms, { ...src, poweredOffState: 'CRITICAL' });
      const states = poweredOffStatesOf(text, 'test');
      expect([...states.entries()]).toEqual(vms.map((v) => [v.id, State.CRITICAL]));
    });

    it(`${format}: a discovery without --powered-off-state writes none (the template's holds for the VM checks)`, () => {
      const text = render(vms, src);
      expect(text).not.toMatch(/^\s+(vars\.cloudchecks_vm_powered_off_state|_POWERED_OFF_STATE)\b/m);
      expect(poweredOffStatesOf(text, 'test').size).toBe(0);
    });
  }

  it('a state that is none names the file, the line and the fix', () => {
    expect(() => poweredOffStatesOf('object Host "vm-1" {\n\tvars.cloudchecks_vm_powered_off_state = "MAYBE"\n}\n', '--inventory f')).toThrow(
      /^--inventory f line 3: powered-off state "MAYBE" of vm-1 is not OK, WARNING, CRITICAL or UNKNOWN; regenerate it with --discovery$/,
    );
  });
});

describe('readPoweredOffStates', () => {
  it('reads several files, the later one winning for a VM in both', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-inv-'));
    const a = join(dir, 'a.conf');
    const b = join(dir, 'b.cfg');
    writeFileSync(a, icingaDiscovery(vms, { ...src, poweredOffState: 'OK' }));
    writeFileSync(b, nagiosDiscovery(vms.slice(0, 1), { ...src, poweredOffState: 'WARNING' }));
    const states = readPoweredOffStates([a, b]);
    expect(states.get(vms[0].id)).toBe(State.WARNING);
    expect(states.get(vms[2].id)).toBe(State.OK);
  });

  it('a missing file is one line naming it and the fix', () => {
    expect(() => readPoweredOffStates(['/nonexistent/vms.conf'])).toThrow(
      'cannot read --inventory /nonexistent/vms.conf: no such file; give the file --discovery-file writes, readable by this user',
    );
  });
});
