import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nagiosPvdcDiscovery, nagiosVdcDiscovery, type DiscoverySource } from '../../../../lib/vcd/inventory/discovery';
import { deliverInventory } from '../../../../lib/vcd/inventory/inventory-delivery';
import { nagiosVcdDependency, nagiosVcdParentGroup, VCD_PARENT_PREFIX, vcdParentFileName, vcdParentGroup } from '../../../../lib/vcd/inventory/vcd-parent';

// What Nagios takes in an object name, and no shell or macro syntax.
const SAFE = /^[a-z0-9_.-]+$/;
/** Every character Nagios or /bin/sh reads as syntax, and the line breaks. */
const SYNTAX = /[!"#$&'()*;<>?[\\\]^`{|}~\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

describe('vcdParentGroup: one parent servicegroup per vCD, by its URL host', () => {
  it('keeps a host name readable, in lower case, without the default port or the path', () => {
    expect(vcdParentGroup('https://vcd-eu1.example.com')).toBe('cloudchecks-vcd-parent-vcd-eu1.example.com');
    expect(vcdParentGroup('https://VCD-EU1.Example.com:443/cloud/')).toBe('cloudchecks-vcd-parent-vcd-eu1.example.com');
  });

  it('tells two vCDs on one address apart by their port', () => {
    expect(vcdParentGroup('https://127.0.0.1:8443')).toBe('cloudchecks-vcd-parent-127.0.0.1_3a8443');
    expect(vcdParentGroup('https://127.0.0.1:9443')).not.toBe(vcdParentGroup('https://127.0.0.1:8443'));
    expect(vcdParentGroup('https://[::1]:8443')).toBe('cloudchecks-vcd-parent-_5b_3a_3a1_5d_3a8443');
  });

  const hostile = [
    "https://a;b$c'd`e.example.com",
    'https://x!y&z(1)*{2}~3|4".example.com',
    'https://$USER1$.example.com',
    'not a url; define host {\n\thost_name x\n}',
    `https://${'a'.repeat(250)}.example.com`,
    'https://bücher.example.com',
  ];
  it.each(hostile.map((h) => [JSON.stringify(h).slice(0, 50), h]))('%s: only safe characters, at most its prefix + 80', (_, url) => {
    const name = vcdParentGroup(url);
    expect(name).toMatch(SAFE);
    expect(name.startsWith(VCD_PARENT_PREFIX)).toBe(true);
    expect(name.length).toBeLessThanOrEqual(VCD_PARENT_PREFIX.length + 80);
  });

  it('a long host is cut and hashed: two that share their start differ, and never equal a whole name', () => {
    const a = vcdParentGroup(`https://${'x'.repeat(100)}a.example.com`);
    const b = vcdParentGroup(`https://${'x'.repeat(100)}b.example.com`);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^cloudchecks-vcd-parent-x{56}__[0-9a-f]{16}$/);
    // A whole name never has a '__': '_' is written _5f.
    expect(vcdParentGroup(`https://${a.slice(VCD_PARENT_PREFIX.length)}`)).not.toBe(a);
  });

  it('distinct hosts give distinct groups', () => {
    const urls = [
      'https://a.example.com',
      'https://a-example.com',
      'https://a.example.com:8443',
      'https://a.example.com_3a8443',
      'https://a_b.example.com',
      ...hostile,
    ];
    expect(new Set(urls.map(vcdParentGroup)).size).toBe(urls.length);
  });
});

describe('what a Nagios inventory says of its vCD parent', () => {
  it('the group definition: one servicegroup, every line free of syntax but its own', () => {
    for (const url of hostile()) {
      const text = nagiosVcdParentGroup(url);
      expect(text.match(/^define /gm)).toEqual(['define ']);
      const alias = /^ {4}alias +(.*)$/m.exec(text)![1];
      expect(alias).not.toMatch(SYNTAX);
      const comment = text.split('\n').filter((l) => l.startsWith('#'));
      expect(comment).toHaveLength(2);
      for (const l of comment) expect(l.slice(1)).not.toMatch(/[;\\]|[\u0000-\u001f]/);
      expect(/^ {4}servicegroup_name +(\S+)$/m.exec(text)![1]).toBe(vcdParentGroup(url));
    }
  });

  it('the dependency names the template, the group and the hosts, and nothing for no host', () => {
    expect(nagiosVcdDependency([], 'https://vcd.example.com', 'cloudchecks-vcd-dependency')).toBe('');
    const text = nagiosVcdDependency(['vdc-1', 'vdc-2'], 'https://vcd.example.com', 'cloudchecks-vcd-dependency');
    expect(text).toContain('    use                             cloudchecks-vcd-dependency\n');
    expect(text).toContain('    servicegroup_name               cloudchecks-vcd-parent-vcd.example.com\n');
    expect(text).toContain('    dependent_host_name             vdc-1,vdc-2\n');
    expect(text).toContain('    dependent_service_description   *\n');
  });

  const src: DiscoverySource = {
    url: 'https://vcd-eu1.example.com',
    org: 'System',
    user: 'provider-monitor',
    passwordFile: '/etc/nagios4/secrets/vcd-system.password',
    command: 'check_pvdc',
  };
  it("VDC and provider VDC inventories end with their hosts' dependency on the vCD", () => {
    const vdcs = nagiosVdcDiscovery([{ id: '00000000-0000-4000-8000-000000000001', name: 'gold; x', org: 'acme' }], src);
    expect(vdcs).toMatch(
      /use {29}cloudchecks-vcd-dependency\n {4}servicegroup_name {15}cloudchecks-vcd-parent-vcd-eu1\.example\.com\n {4}dependent_host_name {13}vdc-00000000-0000-4000-8000-000000000001\n/,
    );
    const pvdcs = nagiosPvdcDiscovery([{ id: '00000000-0000-4000-8000-000000000002', name: 'pvdc' }], src);
    expect(pvdcs).toContain('dependent_host_name             pvdc-00000000-0000-4000-8000-000000000002\n');
  });

  const dir = mkdtempSync(join(tmpdir(), 'cc-vcd-parent-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('--discovery-file: the group in a file of its own beside the inventory, the same for every inventory of the vCD', () => {
    const text = nagiosPvdcDiscovery([{ id: '00000000-0000-4000-8000-000000000002', name: 'pvdc' }], src);
    for (const file of ['vcd-eu1-pvdcs.cfg', 'vcd-eu1-vdcs.cfg'])
      expect(deliverInventory(text, 'nagios', { file: join(dir, file), allowShrink: false }, 1, 'provider VDC', [], src.url).state).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([vcdParentFileName(src.url), 'vcd-eu1-pvdcs.cfg', 'vcd-eu1-vdcs.cfg']);
    expect(readFileSync(join(dir, vcdParentFileName(src.url)), 'utf8')).toBe(nagiosVcdParentGroup(src.url));
    // On stdout: after the hosts. Icinga 2 and Zabbix formats: nothing of it.
    expect(deliverInventory(text, 'nagios', { allowShrink: false }, 1, 'provider VDC', [], src.url).raw).toBe(`${text}\n${nagiosVcdParentGroup(src.url)}`);
    expect(deliverInventory('x', 'icinga2', { allowShrink: false }, 1, 'provider VDC', [], src.url).raw).toBe('x');
  });
});

function hostile(): string[] {
  return ["https://a;b$c'd`e.example.com", 'not a url; define host {\n\thost_name x\n}\\', 'https://$USER1$.example.com'];
}
