import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../../../lib/plugin/duration';
import { parseVmId, parseVmTarget } from '../../../../lib/vcd/vm/vm-id';

const ID = 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70';

describe('parseVmId', () => {
  it.each([
    [ID],
    ['4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70'],
    ['VM-4F2C1A9E-0B7D-4C1E-9A55-2D8E6F1B3C70'],
    [`  ${ID}\n`],
    [`https://vcd.example.com/tenant/acme/vdcs/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d/vm/${ID}`],
    [`https://vcd.example.com/tenant/acme/vdcs/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d/vm/${ID}/`],
    [`https://vcd.example.com/tenant/acme/vdcs/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d/vm/${ID}/general`],
    [`https://vcd.example.com/provider/vms/4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70?tab=general`],
    [`https://vcd.example.com/cloud/org/acme/#/vm/${ID}/general`],
    // The CloudAPI's and the API explorer's form.
    ['urn:vcloud:vm:4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70'],
    ['URN:VCLOUD:VM:4F2C1A9E-0B7D-4C1E-9A55-2D8E6F1B3C70'],
  ])('accepts %j', (text) => {
    expect(parseVmId(text)).toBe(ID);
  });

  it.each([
    ['web-01'],
    ['vm-4f2c1a9e'],
    ['vapp-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70'],
    ['https://vcd.example.com/tenant/acme/vdcs/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d/general'],
    ['ftp://x/vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70'],
    [''],
  ])('refuses %j as a usage error', (text) => {
    expect(() => parseVmId(text)).toThrow(
      /^invalid --vm ".*": expected vm-<guid>, the bare GUID, urn:vcloud:vm:<guid>, or the URL of the VM's page in the vCD web console \(see --help\)$/,
    );
  });
});

describe('parseVmTarget', () => {
  it.each([
    [ID, { kind: 'id', id: ID }],
    ['urn:vcloud:vm:4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70', { kind: 'id', id: ID }],
    ['web-01', { kind: 'name', name: 'web-01' }],
    ['  Web & DB 01 ', { kind: 'name', name: 'Web & DB 01' }],
    ['vm-4f2c1a9e', { kind: 'name', name: 'vm-4f2c1a9e' }],
    ['urn:vcloud:vapp:4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70', { kind: 'name', name: 'urn:vcloud:vapp:4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70' }],
  ])('%j is %j', (text, target) => {
    expect(parseVmTarget(text)).toEqual(target);
  });
  it.each([
    ['https://vcd.example.com/tenant/acme/vdcs/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d/general', /this URL holds no VM id/],
    ['   ', /empty --vm/],
    ['a\nb', /control characters/],
    ['x'.repeat(300), /longer than 256/],
  ])('refuses %j', (text, message) => {
    expect(() => parseVmTarget(text)).toThrow(message);
  });
});

describe('parseDuration', () => {
  it.each([
    ['90s', 90],
    ['15m', 900],
    ['1h', 3600],
    ['1h30m', 5400],
    ['24h', 86400],
    ['0.5h', 1800],
  ])('%s is %d s', (text, seconds) => {
    expect(parseDuration(text, '--window')).toBe(seconds);
  });
  it.each(['', '0', '15x', 'm', '-5m', '1d'])('refuses %j', (text) => {
    expect(() => parseDuration(text, '--window')).toThrow(/invalid --window/);
  });
  it('formats back', () => {
    expect([900, 3600, 90, 5400].map(formatDuration)).toEqual(['15m', '1h', '90s', '90m']);
  });
});
