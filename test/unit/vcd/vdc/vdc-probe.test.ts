// Which VDCs a check_vdc run reads: by name (exact, then ignoring case), by id, by organisation.
import { describe, expect, it } from 'vitest';
import type { VdcRecord } from '../../../../lib/vcd/vdc/vdc-query';
import { selectVdcs } from '../../../../lib/vcd/vdc/vdc-probe';

const rec = (id: string, name: string, org: string): VdcRecord => ({
  id,
  href: `https://vcd.example.com/api/vdc/${id}`,
  name,
  org,
  enabled: true,
  status: 'READY',
  busy: false,
  cpuMhz: { used: 0, limit: 0 },
  memoryMb: { used: 0, limit: 0 },
});
const A = rec('00000000-0000-4000-8000-00000000000a', 'prod', 'acme');
const G = rec('00000000-0000-4000-8000-00000000000b', 'prod', 'globex');
const D = rec('00000000-0000-4000-8000-00000000000c', 'Dev', 'acme');
const where = { account: 'monitor@System', origin: 'https://vcd.example.com' };

describe('selectVdcs', () => {
  it('every VDC, or those of --tenant-org (any case)', () => {
    expect(selectVdcs([A, G, D, A], {}, where)).toEqual([A, G, D]);
    expect(selectVdcs([A, G, D], { tenantOrg: 'ACME' }, where)).toEqual([A, D]);
  });

  it('one by id or name; the same name in two organisations is refused, naming both', () => {
    expect(selectVdcs([A, G, D], { vdc: { kind: 'id', id: G.id } }, where)).toEqual([G]);
    expect(selectVdcs([A, G, D], { vdc: { kind: 'name', name: 'dev' } }, where)).toEqual([D]);
    expect(selectVdcs([A, G, D], { vdc: { kind: 'name', name: 'prod' }, tenantOrg: 'globex' }, where)).toEqual([G]);
    expect(() => selectVdcs([A, G], { vdc: { kind: 'name', name: 'prod' } }, where)).toThrow(
      `2 VDCs are named "prod": prod in org "acme" (${A.id}), prod in org "globex" (${G.id}), add --tenant-org NAME, or give the VDC id with --vdc`,
    );
  });

  it('none is one clear message (an empty list only for discovery)', () => {
    expect(() => selectVdcs([A], { vdc: { kind: 'name', name: 'test' } }, where)).toThrow(
      'no VDC named "test" is visible to monitor@System at https://vcd.example.com, check --vdc as the tenant portal shows it',
    );
    expect(() => selectVdcs([A], { tenantOrg: 'initech' }, where)).toThrow(/^no VDC in org "initech" is visible to monitor@System .*and --tenant-org$/);
    expect(selectVdcs([], {}, where, true)).toEqual([]);
  });
});
