import { describe, expect, it } from 'vitest';
import { isVmId, parseObjectTarget, prefixedIdAfter, uuidAfter, uuidOfUrn } from '../../../../lib/vcd/api/ids';
import { UsageError } from '../../../../lib/plugin/errors';

const ID = '4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70';
const UPPER = ID.toUpperCase();

describe('uuidAfter: the UUID that ends an href', () => {
  it.each([
    ['https://vcd.example.com/api/vdc/' + ID, 'vdc', ID],
    ['https://vcd.example.com/api/admin/vdc/' + ID + '/', 'vdc', ID],
    ['https://vcd.example.com/api/admin/extension/providervdc/' + UPPER, 'providervdc', UPPER],
    ['https://vcd.example.com/api/admin/vdcStorageProfile/' + ID, 'vdcStorageProfile', ID],
    ['https://vcd.example.com/api/org/' + ID, 'org', ID],
  ])('%s after /%s/ is %s (as written)', (href, segment, id) => {
    expect(uuidAfter(href, segment)).toBe(id);
  });

  it.each([
    ['https://vcd.example.com/api/vdc/' + ID + '/action', 'vdc'],
    ['https://vcd.example.com/api/vdcs/' + ID, 'vdc'],
    ['https://vcd.example.com/api/admin/orgVdc/' + ID, 'vdc'],
    ['https://vcd.example.com/api/vdc/not-a-uuid', 'vdc'],
    ['', 'vdc'],
  ])('%s has no UUID after /%s/', (href, segment) => {
    expect(uuidAfter(href, segment)).toBeUndefined();
  });

  it('takes no href at all', () => expect(uuidAfter(undefined, 'vdc')).toBeUndefined());
  it('reads a segment as text, not as a pattern', () => expect(uuidAfter(`/api/vdcX/${ID}`, 'vdc.')).toBeUndefined());
});

describe('prefixedIdAfter: vm-<uuid> and vapp-<uuid> ids', () => {
  it('keeps the prefix and the case', () => {
    expect(prefixedIdAfter(`https://vcd.example.com/api/vApp/vm-${UPPER}`, 'vm')).toBe(`vm-${UPPER}`);
    expect(prefixedIdAfter(`https://vcd.example.com/api/vApp/vapp-${ID}/`, 'vapp')).toBe(`vapp-${ID}`);
  });
  it('refuses another prefix', () => expect(prefixedIdAfter(`https://vcd.example.com/api/vApp/vapp-${ID}`, 'vm')).toBeUndefined());
});

describe('uuidOfUrn', () => {
  it('reads urn:vcloud:<kind>:<uuid>', () => {
    expect(uuidOfUrn(`urn:vcloud:gateway:${ID}`, 'gateway')).toBe(ID);
    expect(uuidOfUrn(`URN:VCLOUD:VIMSERVER:${UPPER}`, 'vimserver')).toBe(UPPER);
  });
  it.each([[`urn:vcloud:vm:${ID}`], [ID], [`urn:vcloud:gateway:${ID}x`], [42], [undefined], [null]])('takes %s for no gateway URN', (value) => {
    expect(uuidOfUrn(value, 'gateway')).toBeUndefined();
  });
});

describe('isVmId', () => {
  it('is vm-<uuid> in lower case', () => {
    expect(isVmId(`vm-${ID}`)).toBe(true);
    expect(isVmId(`vm-${UPPER}`)).toBe(false);
    expect(isVmId(ID)).toBe(false);
    expect(isVmId(`vm-${'0'.repeat(36)}`)).toBe(false);
  });
});

describe('parseObjectTarget: what --vdc, --pvdc and --edge name', () => {
  const VDC = { option: '--vdc', urn: 'vdc', segment: 'vdc', noun: 'VDC' };
  const EDGE = { option: '--edge', urn: 'gateway', segment: 'edgeGateway', noun: 'edge gateway' };

  it.each([
    [ID, VDC],
    [` ${UPPER} `, VDC],
    [`urn:vcloud:vdc:${ID}`, VDC],
    [`https://vcd.example.com/api/vdc/${ID}`, VDC],
    [`https://vcd.example.com/tenant/acme/vdcs/${ID}/compute/vms`, VDC],
    [`https://vcd.example.com/tenant/acme/vdcs/urn:vcloud:vdc:${ID}?tab=1`, VDC],
    [`urn:vcloud:gateway:${ID}`, EDGE],
    [`https://vcd.example.com/cloudapi/1.0.0/edgeGateways/urn:vcloud:gateway:${ID}`, EDGE],
    [`https://vcd.example.com/api/admin/edgeGateway/${ID}/`, EDGE],
  ])('%s is the id', (text, forms) => {
    expect(parseObjectTarget(text, forms)).toEqual({ kind: 'id', id: ID });
  });

  it.each([
    ['acme-prod', VDC],
    [`urn:vcloud:gateway:${ID}`, VDC],
    [`https://vcd.example.com/api/org/${ID}`, VDC],
    [`${ID}-copy`, VDC],
  ])('%s is a name, kept as given', (text, forms) => {
    expect(parseObjectTarget(text, forms)).toEqual({ kind: 'name', name: text });
  });

  it('refuses an empty option, naming it and what to give', () => {
    expect(() => parseObjectTarget('  ', EDGE)).toThrow(UsageError);
    expect(() => parseObjectTarget('', EDGE)).toThrow('--edge is empty: give the edge gateway name or its UUID');
  });
});
