// Discovery output with names tenants chose to attack the provider's monitoring: each VM and
// vApp name of the table must come out of the Icinga 2 and Nagios formats as inert data.
import { describe, expect, it } from 'vitest';
import {
  icingaDiscovery,
  icingaVdcDiscovery,
  nagiosDiscovery,
  nagiosOrgGroups,
  nagiosVdcDiscovery,
  orgGroupFileName,
  type DiscoverySource,
} from '../../../../lib/vcd/inventory/discovery';
import { orgGroupName } from '../../../../lib/vcd/inventory/org-group';
import type { VmRecord } from '../../../../lib/vcd/inventory/vm-query';

const NAMES = [
  'shop $cloudchecks_vcd_password$',
  '$host.vars.cloudchecks_vm_vapp$',
  '$host.vars.cloudchecks_vapp$',
  'price $5',
  '$$',
  '$USER3$ $HOSTNAME$ $ARG1$',
  'trailing \\',
  '"quoted" and \'single\'',
  "web'&touch /tmp/cc-injected&'",
  'Sales & touch /tmp/cc-injected &',
  'a;b|c<d>e(f)',
  '`touch /tmp/cc-injected`',
  '$(touch /tmp/cc-injected)',
  'line\nbreak\r\nnext',
  'nul\u0000byte',
  'sep\u2028line\u2029para\u0085nel',
  '\\',
];
const vms: VmRecord[] = NAMES.map((name, i) => ({
  id: `vm-00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  name,
  vapp: NAMES[NAMES.length - 1 - i],
  status: `ON ${name}`,
  template: false,
  org: NAMES[(i + 3) % NAMES.length],
}));
const src: DiscoverySource = {
  command: 'check_vm_cpu',
  url: 'https://vcd.example.com',
  user: 'monitor',
  org: 'acme',
  passwordFile: '/etc/icinga2/secrets/vcd-acme.password',
};
const blank = (s: string) => s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ');

/** The value of an Icinga 2 macro string once Icinga resolved it; a lone `$` is a macro. */
function resolveIcinga(value: string): string {
  if (!/^(?:[^$]|\$\$)*$/.test(value)) throw new Error(`Icinga would resolve a macro in ${JSON.stringify(value)}`);
  return value.replace(/\$\$/g, '$');
}

describe('icinga2 discovery of hostile names', () => {
  const out = icingaDiscovery(vms, src);
  const blocks = out.split('\nobject Host ').slice(1);

  it('one block of fixed lines per VM: no name breaks a line or a string', () => {
    expect(blocks).toHaveLength(vms.length);
    for (const b of blocks) expect(b.split('\n').filter((l) => l !== '')).toHaveLength(13);
  });
  it.each(vms.map((v, i) => [v.name, i] as const))('%j: display_name as it is, every var a macro string that gives the text back', (_, i) => {
    const v = vms[i];
    const block = blocks[i];
    const attrs = new Map([...block.matchAll(/^\t([\w.]+) = (".*")$/gm)].map((m) => [m[1], JSON.parse(m[2]) as string]));
    expect(block.startsWith(`"${v.id}" {\n`)).toBe(true);
    expect(attrs.get('display_name')).toBe(blank(v.name));
    for (const [key, value] of attrs) if (key.startsWith('vars.')) resolveIcinga(value);
    expect(resolveIcinga(attrs.get('vars.cloudchecks_vm_name')!)).toBe(blank(v.name));
    expect(resolveIcinga(attrs.get('vars.cloudchecks_vapp')!)).toBe(blank(v.vapp));
    expect(resolveIcinga(attrs.get('vars.cloudchecks_vm_status')!)).toBe(blank(v.status));
    expect(resolveIcinga(attrs.get('vars.cloudchecks_vm_org')!)).toBe(blank(v.org!));
    expect(attrs.get('vars.cloudchecks_vm_id')).toBe(v.id);
  });
  it('sets no variable that a command of commands.conf reads but the VM id and the connection', () => {
    const vars = new Set([...out.matchAll(/^\tvars\.(\w+) = /gm)].map((m) => m[1]));
    expect([...vars].sort()).toEqual([
      'cloudchecks_vapp',
      'cloudchecks_vcd_org',
      'cloudchecks_vcd_password_file',
      'cloudchecks_vcd_url',
      'cloudchecks_vcd_user',
      'cloudchecks_vm_id',
      'cloudchecks_vm_name',
      'cloudchecks_vm_org',
      'cloudchecks_vm_status',
    ]);
  });
});

describe('nagios discovery of hostile names', () => {
  const out = nagiosDiscovery(vms, src);
  // The hosts, then the dependency of their services on their vCD's check_vcd.
  const dependency = out.indexOf('\n# Their notifications wait');
  const blocks = out.slice(0, dependency).split('\ndefine host {\n').slice(1);
  const SYNTAX = /[!"#$&'()*;<>?[\\\]^`{|}~\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

  it('one block of fixed lines per VM, none continued by a trailing backslash', () => {
    expect(blocks).toHaveLength(vms.length);
    for (const b of blocks) expect(b.split('\n').filter((l) => l !== '')).toHaveLength(10);
    expect(out).not.toMatch(/\\$/m);
  });
  it.each(vms.map((v, i) => [v.name, i] as const))('%j: every value free of Nagios and shell syntax', (_, i) => {
    const v = vms[i];
    const attrs = new Map([...blocks[i].matchAll(/^ {4}(\w+) +(.*)$/gm)].map((m) => [m[1], m[2]]));
    expect(attrs.get('host_name')).toBe(v.id);
    expect(attrs.get('_VM_ID')).toBe(v.id);
    for (const key of ['alias', 'display_name', '_VM_VAPP', '_VM_STATUS', '_VM_ORG']) {
      expect(attrs.get(key), key).not.toMatch(SYNTAX);
      expect(attrs.get(key), key).not.toBe('');
    }
    expect(attrs.get('_VCD_ARGS')).toBe('--url https://vcd.example.com --org acme --user monitor --password-file /etc/icinga2/secrets/vcd-acme.password');
  });
  it("the hosts' services depend on their vCD's parent group, through the VM template", () => {
    expect(out.slice(dependency)).toBe(
      "\n# Their notifications wait while this vCD's own check_vcd fails (group cloudchecks-vcd-parent-vcd.example.com).\n" +
        'define servicedependency {\n    use                             cloudchecks-vcd-vm-dependency\n' +
        '    servicegroup_name               cloudchecks-vcd-parent-vcd.example.com\n' +
        `    dependent_host_name             ${vms.map((v) => v.id).join(',')}\n    dependent_service_description   *\n}\n`,
    );
  });
  it('a header comment cannot be continued into the first host either', () => {
    expect(() => nagiosDiscovery(vms, { ...src, org: 'acme\\' })).toThrow(/--org "acme\\\\" cannot be written/);
  });
});

describe('a provider account names each VM with its organisation', () => {
  const twins: VmRecord[] = [
    { id: 'vm-00000000-0000-4000-8000-000000000001', name: 'web-01', vapp: 'shop', status: 'POWERED_ON', template: false, org: 'acme' },
    { id: 'vm-00000000-0000-4000-8000-000000000002', name: 'web-01', vapp: 'portal', status: 'POWERED_ON', template: false, org: 'globex' },
  ];
  const provider: DiscoverySource = { ...src, org: 'System' };

  it('icinga2: display_name "acme/web-01" and "globex/web-01"', () => {
    // The hosts' (one tab in); the organisations' groups have theirs too.
    expect([...icingaDiscovery(twins, provider).matchAll(/^\tdisplay_name = "([^"]*)"/gm)].map((m) => m[1])).toEqual(['acme/web-01', 'globex/web-01']);
  });

  it('nagios: alias and display_name the same', () => {
    const out = nagiosDiscovery(twins, provider);
    expect([...out.matchAll(/^ {4}alias\s+(.*)$/gm)].map((m) => m[1])).toEqual(['acme/web-01', 'globex/web-01']);
    expect([...out.matchAll(/^ {4}display_name\s+(.*)$/gm)].map((m) => m[1])).toEqual(['acme/web-01', 'globex/web-01']);
  });

  it('a tenant account keeps the bare name: all its VMs are of its own organisation', () => {
    expect(icingaDiscovery(twins.slice(0, 1), src)).toContain('display_name = "web-01"\n');
  });
});

describe('a provider account gives each organisation a host group', () => {
  const orgs = ['acme', 'globex', 'a "quoted" \\ org\nwith $MACRO$ and $(id)', 'l'.repeat(3000)];
  const vms: VmRecord[] = orgs.map((org, i) => ({
    id: `vm-00000000-0000-4000-8000-00000000000${i}`,
    name: 'web-01',
    vapp: 'shop',
    status: 'POWERED_ON',
    template: false,
    org,
  }));
  const provider: DiscoverySource = { ...src, org: 'System' };

  it('icinga2: each group defined once per file under the shared guard, each host in its own', () => {
    const out = icingaDiscovery([...vms, { ...vms[0], id: 'vm-00000000-0000-4000-8000-00000000000a' }], provider);
    expect(out.match(/^if \(!globals\.contains\("cloudchecks_vcd_org_groups"\)\)/gm)).toHaveLength(1);
    const defined = [...out.matchAll(/^\tobject HostGroup "([^"]+)" \{$/gm)].map((m) => m[1]);
    expect(defined).toEqual(orgs.map(orgGroupName));
    for (const name of defined)
      expect(out).toContain(`if (!globals.cloudchecks_vcd_org_groups.contains("${name}")) {\n\tglobals.cloudchecks_vcd_org_groups.set("${name}", true)\n`);
    const joined = [...out.matchAll(/^\tgroups \+= \[ "([^"]+)" \]$/gm)].map((m) => m[1]);
    expect(joined).toEqual([...orgs.map(orgGroupName), orgGroupName('acme')]);
    // The organisation's own name is shown, escaped: one line, no unescaped quote.
    expect(out).toContain('\t\tdisplay_name = "Cloud Director organisation a \\"quoted\\" \\\\ org with $MACRO$ and $(id)"\n');
  });

  it("nagios: the hosts join their group beside their template's; the definitions are nagiosOrgGroups", () => {
    const out = nagiosDiscovery(vms, provider);
    expect([...out.matchAll(/^ {4}hostgroups\s+(\S+)$/gm)].map((m) => m[1])).toEqual(orgs.map((o) => `+${orgGroupName(o)}`));
    expect(out).not.toContain('define hostgroup');
    const groups = nagiosOrgGroups(orgs);
    expect([...groups.matchAll(/^ {4}hostgroup_name\s+(\S+)$/gm)].map((m) => m[1])).toEqual(orgs.map(orgGroupName));
    for (const alias of [...groups.matchAll(/^ {4}alias\s+(.*)$/gm)].map((m) => m[1])) expect(alias).not.toMatch(/[$"\\;`]/);
    expect(orgGroupFileName('acme')).toBe('cloudchecks-group-vcd-org-acme.cfg');
  });

  it("a tenant account's hosts join no organisation group", () => {
    expect(icingaDiscovery(vms.slice(0, 1), src)).not.toMatch(/HostGroup|groups/);
    expect(nagiosDiscovery(vms.slice(0, 1), src)).not.toMatch(/hostgroup/);
  });

  it('VDC hosts join the same groups', () => {
    const vdcs = [{ id: '00000000-0000-4000-8000-000000000001', name: 'vdc', org: 'acme' }];
    expect(icingaVdcDiscovery(vdcs, provider)).toContain(`\tgroups += [ "${orgGroupName('acme')}" ]\n`);
    expect(nagiosVdcDiscovery(vdcs, provider)).toContain(`    hostgroups      +${orgGroupName('acme')}\n`);
  });

  it("VDC hosts of a provider account show their organisation, as VMs do; a tenant account's do not", () => {
    const vdcs = [{ id: '00000000-0000-4000-8000-000000000001', name: 'gold', org: 'acme' }];
    expect(icingaVdcDiscovery(vdcs, provider)).toContain('\tdisplay_name = "acme/gold"\n');
    expect(nagiosVdcDiscovery(vdcs, provider)).toContain('    display_name    acme/gold\n');
    expect(icingaVdcDiscovery(vdcs, src)).toContain('\tdisplay_name = "gold"\n');
  });
});
