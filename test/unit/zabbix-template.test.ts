// contrib/zabbix/cloudchecks_templates.yaml, read as Zabbix reads it. Zabbix 6.0 and 7.0 refuse
// the whole import when one uuid is not a UUIDv4 (CApiInputValidator::validateUuid checks the
// version nibble and the variant bits), and a check whose state has no trigger on UNKNOWN fails
// silently. The real import is test/integration/zabbix.test.ts.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import PLUGINS from '../../plugins/registry.json';

const REPO = resolve(__dirname, '../..');
const TEXT = readFileSync(join(REPO, 'contrib/zabbix/cloudchecks_templates.yaml'), 'utf8');

interface Trigger {
  uuid: string;
  expression: string;
  name: string;
  recovery_mode?: string;
  recovery_expression?: string;
}
interface Item {
  uuid: string;
  name: string;
  type?: string;
  key: string;
  master_item?: { key: string };
  preprocessing?: Array<{ type: string; parameters: string[] }>;
  triggers?: Trigger[];
  trigger_prototypes?: Trigger[];
}
interface Template {
  uuid: string;
  template: string;
  items?: Item[];
  discovery_rules?: Array<{ uuid: string; key: string; item_prototypes?: Item[] }>;
  macros?: Array<{ macro: string; value?: string }>;
}
const doc = parse(TEXT) as { zabbix_export: { version: string; templates: Template[] } };
const templates = doc.zabbix_export.templates;
type WithDeps = Trigger & { dependencies?: Array<{ name: string; expression: string }> };
/**
 * The templates whose checks run beneath check_vcd, with the triggers that run a check against
 * vCD: each VM's and VDC's, the provider VDCs', the fleet runners'. Their triggers depend on
 * check_vcd's and fire on the second UNKNOWN in a row.
 */
const discovered = (t: Template): WithDeps[] => t.discovery_rules!.flatMap((r) => r.item_prototypes ?? []).flatMap((i) => i.trigger_prototypes ?? []);
const ownItems = (t: Template): WithDeps[] => t.items!.flatMap((i) => i.triggers ?? []);
const beneath: Array<[string, (t: Template) => WithDeps[]]> = [
  ['cloudchecks Cloud Director VM', ownItems],
  ['cloudchecks Cloud Director VMs', discovered],
  ['cloudchecks Cloud Director VDCs', discovered],
  ['cloudchecks Cloud Director provider VDCs', discovered],
  ['cloudchecks Cloud Director VM fleet', ownItems],
  ['cloudchecks Cloud Director VM fleet trapper', ownItems],
  ['cloudchecks Cloud Director tasks', ownItems],
  ['cloudchecks Cloud Director edge gateways', discovered],
  ['cloudchecks Cloud Director backends', discovered],
];
const SECOND_UNKNOWN = new Set(beneath.map(([name]) => name));
/**
 * The organisation hosts' templates: no check_vcd of their own (one per vCD, on the vCD's host);
 * each reads its state from there (a calculated item, no login) and its triggers that an outage
 * makes stay quiet while it is CRITICAL and {$CLOUDCHECKS.VCD.SETTLE} after.
 */
const GATED: Record<string, string> = {
  'cloudchecks Cloud Director VM': 'cloudchecks.vm.vcd.code',
  'cloudchecks Cloud Director VMs': 'cloudchecks.vms.vcd.code',
  'cloudchecks Cloud Director VDCs': 'cloudchecks.vdc.vcd.code',
  'cloudchecks Cloud Director provider VDCs': 'cloudchecks.pvdc.vcd.code',
  'cloudchecks Cloud Director VM fleet': 'cloudchecks.fleet.vcd.code',
  'cloudchecks Cloud Director VM fleet trapper': 'cloudchecks.fleet.vcd.code',
};
/** The condition a gated trigger carries: check_vcd on the vCD's host not CRITICAL within {$CLOUDCHECKS.VCD.SETTLE}. */
const gate = (template: string) => ` and count(/${template}/${GATED[template]},{$CLOUDCHECKS.VCD.SETTLE},"eq",2)=0`;

/** Zabbix's rule, as in CApiInputValidator::validateUuid: 32 hex digits, version 4, variant 10xx. */
function isZabbixUuid(value: string): boolean {
  return /^[0-9a-fA-F]{12}4[0-9a-fA-F]{3}[89abAB][0-9a-fA-F]{15}$/.test(value);
}

function allUuids(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => allUuids(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'uuid') out.push(String(v));
      else allUuids(v, out);
    }
  }
  return out;
}

describe('contrib/zabbix/cloudchecks_templates.yaml', () => {
  it('is export format 6.0 (imports into 6.0 LTS, and into 7.0 LTS through its converter)', () => {
    expect(doc.zabbix_export.version).toBe('6.0');
  });

  it('the UUIDv4 rule itself: Zabbix refuses the old ids, accepts real v4 ones', () => {
    expect(isZabbixUuid('6c5af77ddb445bf983311fe7e2db0b66')).toBe(false); // the id the issue reports
    expect(isZabbixUuid('a0c25ed3b5b34d8e8bc6f4cf1b2c5d3e')).toBe(true);
    expect(isZabbixUuid('a0c25ed3b5b34d8e7bc6f4cf1b2c5d3e')).toBe(false); // variant 0xxx
    expect(isZabbixUuid('a0c25ed3b5b33d8e8bc6f4cf1b2c5d3e')).toBe(false); // version 3
  });

  it('every uuid is a UUIDv4, and unique', () => {
    const uuids = allUuids(doc);
    expect(uuids.length).toBeGreaterThan(50);
    expect(uuids.filter((u) => !isZabbixUuid(u))).toEqual([]);
    expect(new Set(uuids).size).toBe(uuids.length);
  });

  it('every check (item or prototype) has a state item from $.code with a trigger on UNKNOWN', () => {
    const checked: string[] = [];
    for (const t of templates) {
      const lists: Array<{ items: Item[]; proto: boolean }> = [{ items: t.items ?? [], proto: false }];
      for (const rule of t.discovery_rules ?? []) lists.push({ items: rule.item_prototypes ?? [], proto: true });
      for (const { items, proto } of lists) {
        for (const master of items.filter((i) => i.type === 'EXTERNAL')) {
          const state = items.find((i) => i.master_item?.key === master.key && i.preprocessing?.[0].parameters[0] === '$.code');
          expect(state, `${t.template}: ${master.key} has no state item`).toBeDefined();
          const triggers = (proto ? state!.trigger_prototypes : state!.triggers) ?? [];
          // Beneath check_vcd (the fleet runners, each VM's, VDC's and provider VDC's check) on the
          // second UNKNOWN in a row (below); the cluster's on the first.
          const onUnknown = SECOND_UNKNOWN.has(t.template)
            ? `min(/${t.template}/${state!.key},#2)=3${t.template in GATED ? gate(t.template) : ''}`
            : `last(/${t.template}/${state!.key})=3`;
          const unknown = triggers.find((tr) => tr.expression === onUnknown);
          expect(unknown, `${t.template}: ${state!.key} has no trigger on UNKNOWN`).toBeDefined();
          checked.push(master.key.replace(/\[.*/, ''));
        }
      }
    }
    expect(new Set(checked)).toEqual(new Set(PLUGINS));
  });

  it('holds nothing that Zabbix 7.0 converts differently on import (C64ImportConverter)', () => {
    // 7.0 re-escapes backslashes in the string parameters of trigger functions, and drops the
    // timeout of items other than HTTP agent and script: neither may occur here.
    const expressions = templates.flatMap((t) => [
      ...(t.items ?? []).flatMap((i) => (i.triggers ?? []).map((tr) => tr.expression)),
      ...(t.discovery_rules ?? []).flatMap((r) => (r.item_prototypes ?? []).flatMap((i) => (i.trigger_prototypes ?? []).map((tr) => tr.expression))),
    ]);
    expect(expressions.length).toBeGreaterThan(10);
    expect(expressions.filter((e) => e.includes('\\'))).toEqual([]);
    expect(TEXT).not.toMatch(/^\s*timeout:/m);
  });

  it('triggers name items of their own template, and every macro used is defined there', () => {
    for (const t of templates) {
      const keys = new Set<string>();
      const triggers: Trigger[] = [];
      for (const i of t.items ?? []) {
        keys.add(i.key);
        triggers.push(...(i.triggers ?? []));
      }
      for (const r of t.discovery_rules ?? []) {
        for (const i of r.item_prototypes ?? []) {
          keys.add(i.key);
          triggers.push(...(i.trigger_prototypes ?? []));
        }
      }
      for (const tr of triggers) {
        for (const m of tr.expression.matchAll(/\/([^/]+)\/([^)]+?)(?:,[^)]*)?\)/g)) {
          expect(m[1], tr.name).toBe(t.template);
          expect(keys.has(m[2]), `${t.template}: ${tr.name} uses ${m[2]}`).toBe(true);
        }
      }
      const defined = new Set((t.macros ?? []).map((m) => m.macro));
      const used = new Set(JSON.stringify(t).match(/\{\$[A-Z0-9_.]+\}/g) ?? []);
      for (const m of used) expect(defined.has(m), `${t.template} uses ${m}`).toBe(true);
    }
  });
});

describe('contrib/zabbix/cloudchecks_templates_7.0.yaml', () => {
  const SEVEN = readFileSync(join(REPO, 'contrib/zabbix/cloudchecks_templates_7.0.yaml'), 'utf8');
  const seven = parse(SEVEN) as { zabbix_export: { version: string; template_groups: unknown; templates: Template[] } };

  it('is what scripts/zabbix-templates-7.0.mjs makes of the 6.0 file (edit that one, then run the script)', () => {
    const r = spawnSync(process.execPath, [join(REPO, 'scripts/zabbix-templates-7.0.mjs'), '--check'], { encoding: 'utf8' });
    expect(r.stderr + r.stdout).toMatch(/matches cloudchecks_templates\.yaml/);
    expect(r.status).toBe(0);
  });

  it('is export format 7.0, and the 6.0 templates with a timeout on each external check and its macro, nothing else', () => {
    expect(seven.zabbix_export.version).toBe('7.0');
    const externals = JSON.stringify(seven).match(/"type":"EXTERNAL"/g) ?? [];
    const timeouts = [...SEVEN.matchAll(/^ +timeout: '(.+)'$/gm)].map((m) => m[1]);
    expect(timeouts).toHaveLength(externals.length);
    const fleet = seven.zabbix_export.templates.find((x) => x.template === 'cloudchecks Cloud Director VM fleet')!;
    expect((fleet.items![0] as Item & { timeout?: string }).timeout).toBe('{$CLOUDCHECKS.FLEET.TIMEOUT}');
    // Without what 7.0 adds (and the dashboards, in 7.0's widget format: test/unit/zabbix-graphs.test.ts), it is the 6.0 document.
    const strip = (node: unknown): unknown =>
      Array.isArray(node)
        ? node.filter((n: { macro?: string }) => !['{$CLOUDCHECKS.TIMEOUT}', '{$CLOUDCHECKS.FLEET.TIMEOUT}'].includes(n?.macro ?? '')).map(strip)
        : node && typeof node === 'object'
          ? Object.fromEntries(
              Object.entries(node)
                .filter(([k]) => k !== 'timeout' && k !== 'dashboards')
                // 7.0's "check for not supported value" names the errors it takes: -1, any.
                .map(([k, v]) => [k === 'template_groups' ? 'groups' : k, k === 'parameters' && JSON.stringify(v) === '["-1"]' ? [''] : strip(v)]),
            )
          : node;
    const { version: _v7, ...rest7 } = (strip(seven) as typeof seven).zabbix_export;
    const { version: _v6, date: _date, ...rest6 } = (strip(doc) as typeof doc).zabbix_export as typeof doc.zabbix_export & { date: string };
    expect(rest7).toEqual(rest6);
  });
});

describe('the fleet templates: one root cause, one problem', () => {
  const fleets = templates.filter((t) => t.template.startsWith('cloudchecks Cloud Director VM fleet'));

  // Cannot be collected on the second failed run in a row: check_vcd (every minute) has raised
  // its problem by then where vCD is the cause; on the first, a runner that ran before it would
  // raise its own problem beside it (in the real 6.0 server, one of 41 runners did).
  it("both have the runner's triggers: cannot be collected (two runs in a row), and no result for {$CLOUDCHECKS.FLEET.NODATA}", () => {
    expect(fleets).toHaveLength(2);
    for (const t of fleets) {
      const state = t.items!.find((i) => i.key === 'cloudchecks.fleet.code')!;
      expect(state.triggers!.map((tr) => tr.expression)).toEqual(
        expect.arrayContaining([
          `min(/${t.template}/cloudchecks.fleet.code,#2)=3${gate(t.template)}`,
          `nodata(/${t.template}/cloudchecks.fleet.code,{$CLOUDCHECKS.FLEET.NODATA})=1${gate(t.template)}`,
        ]),
      );
    }
  });

  // The runner's problems, raised before an outage, outlive it too: the gate makes their
  // expressions false while vCD is down and {$CLOUDCHECKS.VCD.SETTLE} after; they close only on
  // what the runner says again.
  it("the runner's problems close on the runner's own results, never with the gate", () => {
    for (const t of fleets) {
      const state = t.items!.find((i) => i.key === 'cloudchecks.fleet.code')!;
      const recovery = Object.fromEntries(state.triggers!.map((tr) => [tr.name, [tr.recovery_mode, tr.recovery_expression]]));
      const code = `/${t.template}/cloudchecks.fleet.code`;
      expect(recovery).toEqual({
        'VM fleet cannot be collected': ['RECOVERY_EXPRESSION', `last(${code})<>3`],
        'VM fleet: some VMs could not be read': ['RECOVERY_EXPRESSION', `last(${code})<>1 and last(${code})<>3`],
        'VM fleet: no result for {$CLOUDCHECKS.FLEET.NODATA}': ['RECOVERY_EXPRESSION', `nodata(${code},{$CLOUDCHECKS.FLEET.NODATA})=0`],
      });
    }
  });

  it('every VM trigger depends on both, so that a failed run or a silent runner is the one problem', () => {
    for (const t of fleets) {
      const items = t.discovery_rules!.flatMap((r) => r.item_prototypes ?? []);
      // cpu, mem and disk: cannot be checked, above the threshold; snapshot, tools and lease: cannot be checked, problem, warning.
      const counts = Object.fromEntries(items.filter((i) => i.trigger_prototypes?.length).map((i) => [i.key, i.trigger_prototypes!.length]));
      expect(counts).toEqual({
        ...Object.fromEntries(
          ['cpu.code', 'cpu.usage', 'mem.code', 'mem.usage', 'disk.code', 'disk.used_pct'].map((k) => [`cloudchecks.fleet.vm.${k}[{#VM.ID}]`, 1]),
        ),
        ...Object.fromEntries(['snapshot', 'tools', 'lease'].map((k) => [`cloudchecks.fleet.vm.${k}.code[{#VM.ID}]`, 3])),
      });
      const prototypes = items.flatMap((i) => i.trigger_prototypes ?? []);
      for (const tr of prototypes as Array<Trigger & { dependencies?: Array<{ expression: string }> }>)
        expect((tr.dependencies ?? []).map((d) => d.expression).sort(), `${t.template}: ${tr.name}`).toEqual([
          `min(/${t.template}/cloudchecks.fleet.code,#2)=3${gate(t.template)}`,
          `nodata(/${t.template}/cloudchecks.fleet.code,{$CLOUDCHECKS.FLEET.NODATA})=1${gate(t.template)}`,
        ]);
    }
  });

  it('both take the powered-off state from {$CLOUDCHECKS.VM.POWERED_OFF_STATE} (or its context per VM), OK unless changed', () => {
    for (const t of fleets) {
      expect(
        t.macros!.find((m) => m.macro === '{$CLOUDCHECKS.VM.POWERED_OFF_STATE}'),
        t.template,
      ).toMatchObject({ value: 'OK' });
      expect(JSON.stringify(t.items!.concat(t.discovery_rules!.flatMap((r) => r.item_prototypes ?? [])))).toMatch(/\{\$CLOUDCHECKS\.VM\.POWERED_OFF_STATE[}:]/);
    }
  });
});

describe('preprocessing Zabbix 6.0 imports', () => {
  it('no JavaScript step has an error handler: 6.0 refuses one ("Incorrect value for field error_handler")', () => {
    const steps = templates.flatMap((t) =>
      (t.items ?? [])
        .concat((t.discovery_rules ?? []).flatMap((r) => r.item_prototypes ?? []))
        .flatMap((i) => (i.preprocessing ?? []).map((p) => ({ key: i.key, ...p }))),
    );
    expect(steps.filter((p) => p.type === 'JAVASCRIPT' && 'error_handler' in p).map((p) => p.key)).toEqual([]);
  });
});

describe("the fleet templates: each VM's own powered-off choice", () => {
  const OFF = 'vm-0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e';
  const OTHER_OFF = 'vm-8e9f0a1b-2c3d-4e4f-8a5b-6c7d8e9f0a1b';
  const ON = 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70';
  /** The host's macros: the template's OK, and CRITICAL for OFF by its id as context. */
  const hostMacros: Record<string, string> = { '{$CLOUDCHECKS.VM.POWERED_OFF_STATE}': 'OK', [`{$CLOUDCHECKS.VM.POWERED_OFF_STATE:"${OFF}"}`]: 'CRITICAL' };
  /** A user macro as Zabbix resolves it: with context, the context's value or else the macro's own. */
  const resolve = (text: string) => text.replace(/\{\$([A-Z0-9_.]+)(?::"([^"]*)")?\}/g, (m, name: string) => hostMacros[m] ?? hostMacros[`{$${name}}`] ?? m);
  /** One state item of a discovered VM: its LLD macros, then its steps on the document. */
  function stateOf(item: Item, doc: unknown, id: string): unknown {
    let value: unknown = JSON.stringify(doc);
    for (const step of item.preprocessing ?? []) {
      const parameter = resolve(step.parameters[0].replaceAll('{#VM.ID}', id));
      if (step.type === 'JSONPATH') {
        const found = /^\$\.vms\['([^']+)'\](?:\.(\w+)\.code)?$/.exec(parameter)!;
        const vm = (JSON.parse(String(value)) as { vms: Record<string, Record<string, { code: number }>> }).vms[found[1]];
        value = found[2] ? vm[found[2]].code : JSON.stringify(vm);
      } else if (step.type === 'MATCHES_REGEX') {
        // What does not match is discarded (each such step has DISCARD_VALUE): no value.
        if (!new RegExp(parameter).test(String(value))) return undefined;
      } else value = new Function('value', parameter)(String(value)) as unknown;
    }
    return value;
  }
  /** The --compact document of a run with --powered-off-state `given` (the trapper's runner: none, so UNKNOWN), with every service. */
  const document = (given: number) => {
    const vm = (status: string, code: number) => ({
      status,
      cpu: { code },
      mem: { code },
      disk: { code },
      snapshot: { code },
      tools: { code },
      lease: { code },
    });
    return { vms: { [OFF]: vm('POWERED_OFF', given), [OTHER_OFF]: vm('SUSPENDED', given), [ON]: vm('POWERED_ON', given) } };
  };
  const stateItems = (template: string) =>
    templates
      .find((x) => x.template === template)!
      .discovery_rules!.flatMap((r) => r.item_prototypes ?? [])
      .filter((i) => /^cloudchecks\.fleet\.vm\.\w+\.code\[/.test(i.key));
  /** The services that follow the powered-off policy; snapshots and leases are judged whatever the power state. */
  const FOLLOWS_POWER = ['cpu', 'mem', 'disk', 'tools'];

  for (const [template, given] of [
    ['cloudchecks Cloud Director VM fleet', 0],
    ['cloudchecks Cloud Director VM fleet trapper', 3],
  ] as const) {
    it(`${template}: the VM's own {$CLOUDCHECKS.VM.POWERED_OFF_STATE:"<its id>"} decides, the host's for the others; a running VM keeps its code`, () => {
      const states = stateItems(template).filter((i) => FOLLOWS_POWER.some((s) => i.key.startsWith(`cloudchecks.fleet.vm.${s}.code[`)));
      expect(states).toHaveLength(FOLLOWS_POWER.length);
      for (const item of states) {
        expect(JSON.stringify(item.preprocessing)).toContain('{$CLOUDCHECKS.VM.POWERED_OFF_STATE:\\"{#VM.ID}\\"}');
        expect(stateOf(item, document(given), OFF), item.key).toBe(2);
        expect(stateOf(item, document(given), OTHER_OFF), item.key).toBe(0);
        expect(stateOf(item, document(given), ON), item.key).toBe(given);
      }
    });

    it(`${template}: without the tools service in the run, the tools state item has no value (discarded, not unsupported)`, () => {
      const [tools] = stateItems(template).filter((i) => i.key.startsWith('cloudchecks.fleet.vm.tools.code['));
      const { vms } = document(given);
      const without = { vms: Object.fromEntries(Object.entries(vms).map(([id, { tools: _t, ...rest }]) => [id, rest])) };
      for (const id of [OFF, OTHER_OFF, ON]) expect(stateOf(tools, without, id), id).toBeUndefined();
    });

    it(`${template}: snapshots and leases keep the run's code whatever the VM's power state or its own powered-off choice`, () => {
      const states = stateItems(template).filter((i) => /^cloudchecks\.fleet\.vm\.(snapshot|lease)\.code\[/.test(i.key));
      expect(states).toHaveLength(2);
      for (const item of states) {
        expect(JSON.stringify(item.preprocessing), item.key).not.toContain('POWERED_OFF_STATE');
        for (const id of [OFF, OTHER_OFF, ON]) expect(stateOf(item, document(given), id), `${item.key} ${id}`).toBe(given);
      }
    });
  }
});

describe('the ini example and docs/zabbix.md give the VM checks a session cache', () => {
  /** The sections of an ini text (comments dropped) as key sets. */
  function sections(text: string): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    let current: Set<string> | undefined;
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      const head = /^\[([^\]]+)\]$/.exec(line);
      if (head) out.set(head[1], (current = new Set()));
      else if (current && line && !line.startsWith('#') && !line.startsWith(';')) current.add(line.split('=')[0].trim());
    }
    return out;
  }
  const example = readFileSync(join(REPO, 'contrib/zabbix/cloudchecks.ini.example'), 'utf8');
  const docsIni = /```ini\n([\s\S]*?)```/.exec(readFileSync(join(REPO, 'docs/zabbix.md'), 'utf8'))![1];

  it.each([
    ['contrib/zabbix/cloudchecks.ini.example', example],
    ['docs/zabbix.md', docsIni],
  ])('%s: every Cloud Director section sets cache-dir (the zabbix user has no usable home on Debian)', (_name, text) => {
    const vcd = [...sections(text)].filter(([, keys]) => keys.has('password-file') || keys.has('api-token-file'));
    expect(vcd.length).toBeGreaterThan(0);
    for (const [name, keys] of vcd) expect(keys.has('cache-dir'), `[${name}]`).toBe(true);
  });
});

describe('check_vcd is the parent of every Cloud Director service (issue: one outage, one problem per vCD)', () => {
  const VCD_DOWN = 'last(/cloudchecks Cloud Director service/cloudchecks.vcd.code)=2';
  const sameHost = beneath.filter(([name]) => !(name in GATED));
  const gated = beneath.filter(([name]) => name in GATED);

  // The tasks, edge gateways and backends templates sit on the vCD's host beside check_vcd.
  it.each(sameHost)('%s (on the vCD host): every trigger depends on "Cloud Director: down, silent or refusing the login"', (name, triggersOf) => {
    const template = templates.find((t) => t.template === name)!;
    const triggers = triggersOf(template);
    expect(triggers.length).toBeGreaterThan(2);
    for (const tr of triggers)
      expect(
        (tr.dependencies ?? []).map((d) => d.expression),
        `${name}: ${tr.name}`,
      ).toContain(VCD_DOWN);
  });

  // The organisation hosts' templates need no check_vcd of their own (a login per host and
  // minute, a page per host): Zabbix links them alone, and they read check_vcd's state from the
  // vCD's host in {$CLOUDCHECKS.VCD.GROUP}, without a login.
  it.each(gated)('%s (an organisation host): no dependency on the service template; its state read from the group {$CLOUDCHECKS.VCD.GROUP}', (name) => {
    const template = templates.find((t) => t.template === name)!;
    expect(JSON.stringify(template)).not.toContain('cloudchecks Cloud Director service/');
    const item = template.items!.find((i) => i.key === GATED[name])! as Item & { params: string; delay: string };
    expect(item.type).toBe('CALCULATED');
    expect(item.params).toBe('max(last_foreach(/*/cloudchecks.vcd.code?[group="{$CLOUDCHECKS.VCD.GROUP}"]))');
    expect(item.delay).toBe('{$CLOUDCHECKS.VCD.INTERVAL}');
    // No check_vcd in the group (nothing found: not supported) is 4, never CRITICAL; it holds nothing back.
    expect(item.preprocessing).toEqual([{ type: 'CHECK_NOT_SUPPORTED', parameters: [''], error_handler: 'CUSTOM_VALUE', error_handler_params: '4' }]);
    expect(item.triggers).toBeUndefined();
    const macros = Object.fromEntries((template.macros ?? []).map((m) => [m.macro, m.value]));
    expect(macros).toMatchObject({ '{$CLOUDCHECKS.VCD.GROUP}': 'Cloud Director', '{$CLOUDCHECKS.VCD.INTERVAL}': '1m' });
    // The gate opens {$CLOUDCHECKS.VCD.SETTLE} after check_vcd's last CRITICAL: by then each check
    // of the template has run again (its longest interval, and a run of at most 5 minutes), or its
    // UNKNOWNs of the outage would raise their problems as the gate opens.
    const minutes = (d = '') => Number(d.slice(0, -1)) * { s: 1 / 60, m: 1, h: 60, d: 1440 }[d.slice(-1) as 's' | 'm' | 'h' | 'd'];
    const checks = [...(template.items ?? []), ...(template.discovery_rules ?? []).flatMap((r) => r.item_prototypes ?? [])].filter(
      (i) => i.type === 'EXTERNAL' && !i.key.startsWith('check_vm_fleet['),
    ) as Array<Item & { delay: string }>;
    const delays = checks.map((i) => (i.delay.startsWith('{$') ? macros[i.delay] : i.delay)).map(minutes);
    // The fleet's runner: its values every {$CLOUDCHECKS.FLEET.INTERVAL} (5m), the trapper's by its timer.
    const longest = Math.max(0, ...delays, macros['{$CLOUDCHECKS.FLEET.INTERVAL}'] ? minutes(macros['{$CLOUDCHECKS.FLEET.INTERVAL}']) : 0);
    expect(
      minutes(macros['{$CLOUDCHECKS.VCD.SETTLE}']),
      `${name}: {$CLOUDCHECKS.VCD.SETTLE} ${macros['{$CLOUDCHECKS.VCD.SETTLE}']}, its longest interval ${longest} min`,
    ).toBeGreaterThanOrEqual(longest + 5);
  });

  // What an outage makes (a check that cannot be made, a runner without result) is held back by
  // the gate; what a check measured (over a threshold, disabled) is not: check_vcd's own
  // account refused while the others still measure silences nothing they measure.
  it.each(gated)('%s: the triggers an outage makes carry the gate, the measured ones do not', (name, triggersOf) => {
    const template = templates.find((t) => t.template === name)!;
    const triggers = triggersOf(template);
    const made = (e: string) => /,#2\)=3 and /.test(e) || /^nodata\(/.test(e) || /^last\([^)]*cloudchecks\.fleet\.code\)=1/.test(e);
    expect(triggers.filter((tr) => made(tr.expression)).length).toBeGreaterThan(0);
    for (const tr of triggers) expect(tr.expression.endsWith(gate(name)), `${name}: ${tr.name}`).toBe(made(tr.expression));
  });

  // The gate holds a cannot-be-checked problem back; it must not close one already open (a VM
  // without VMware Tools, a check refused its rights): while vCD is down the gated expression is
  // false, and without a recovery expression of its own the problem would close with the outage
  // and be raised again once the gate opens, two notifications for a VM per outage. Each closes
  // only on a result other than UNKNOWN. (The fleets' VMs get no values while vCD is down.)
  it.each(gated.filter(([name]) => !name.includes('fleet')))(
    '%s: a cannot-be-checked problem closes on a result other than UNKNOWN, never with the gate',
    (name, triggersOf) => {
      const template = templates.find((t) => t.template === name)!;
      const cannot = triggersOf(template).filter((tr) => /,#2\)=3 and /.test(tr.expression));
      expect(cannot.length).toBeGreaterThan(0);
      for (const tr of cannot) {
        const state = /^min\((\/[^,]+),#2\)=3 and /.exec(tr.expression)![1];
        expect({ mode: tr.recovery_mode, expression: tr.recovery_expression }, `${name}: ${tr.name}`).toEqual({
          mode: 'RECOVERY_EXPRESSION',
          expression: `last(${state})<>3`,
        });
      }
    },
  );

  // A problem a check measured before an outage (a state WARNING or CRITICAL: a VDC near its
  // limit, an old snapshot, a failed edge gateway) must outlive it: while vCD is down the check is
  // UNKNOWN, the problem expression false, and without a recovery expression of its own the
  // problem would close there and be raised again by the first real result after, two
  // notifications per item and outage. Each closes only on a result other than UNKNOWN; between
  // 0, 1 and 2 it behaves as before (Zabbix evaluates the recovery expression only once the
  // problem expression is false), so a WARNING that becomes CRITICAL still hides behind it.
  it.each(beneath)('%s: a problem measured from a state closes only on a result other than UNKNOWN', (name) => {
    const template = templates.find((t) => t.template === name)!;
    // Its own items' triggers and its prototypes' (the fleets have both: the runner's, each VM's).
    const every = [...(template.items ? ownItems(template) : []), ...(template.discovery_rules ? discovered(template) : [])];
    const measured = every.filter((tr) => /^last\(\/[^)]+\.code(\[[^\]]*\])?\)=[12]$/.test(tr.expression));
    // The discovered VMs' template judges metrics only (below).
    if (name !== 'cloudchecks Cloud Director VMs') expect(measured.length, name).toBeGreaterThan(0);
    for (const tr of measured) {
      const state = /^last\(([^)]+)\)=[12]$/.exec(tr.expression)![1];
      expect({ mode: tr.recovery_mode, expression: tr.recovery_expression }, `${name}: ${tr.name}`).toEqual({
        mode: 'RECOVERY_EXPRESSION',
        expression: `last(${state})<>3`,
      });
    }
  });

  // A threshold on a metric (CPU over 90 % for 15m, disks 90 % full) reads an item that an
  // UNKNOWN run gives no value (its first step discards what is not there): an outage leaves it
  // as it was, and a timer-based function over no values leaves the trigger unknown, not closed.
  it.each(beneath)('%s: the metric items of its threshold triggers take no value from an UNKNOWN run', (name) => {
    const template = templates.find((t) => t.template === name)!;
    const items = [...(template.items ?? []), ...(template.discovery_rules ?? []).flatMap((r) => r.item_prototypes ?? [])];
    for (const item of items) {
      const triggers = [...(item.triggers ?? []), ...(item.trigger_prototypes ?? [])];
      if (triggers.length === 0 || /\.code(\[|$)/.test(item.key) || item.key.endsWith('session_cache_unusable')) continue;
      expect(item.preprocessing?.[0], `${name}: ${item.key}`).toMatchObject({ type: 'JSONPATH', error_handler: 'DISCARD_VALUE' });
    }
  });

  it('the one-VM template: an UNKNOWN run that does not name the session cache gives its item no value', () => {
    const template = templates.find((t) => t.template === 'cloudchecks Cloud Director VM')!;
    const item = template.items!.find((i) => i.key === 'cloudchecks.vm.session_cache_unusable')!;
    const [script, match] = item.preprocessing!;
    expect(match).toEqual({ type: 'MATCHES_REGEX', parameters: ['^[01]$'], error_handler: 'DISCARD_VALUE' });
    const value = (doc: unknown) => {
      const out = String(new Function('value', script.parameters[0])(JSON.stringify(doc)) as unknown);
      return new RegExp(match.parameters[0]).test(out) ? out : undefined;
    };
    const cache = { name: 'session-cache', state: 'WARNING' };
    expect(value({ code: 0, items: [] })).toBe('0');
    expect(value({ code: 1, items: [cache] })).toBe('1');
    expect(value({ code: 3, items: [cache] })).toBe('1');
    expect(value({ code: 3, items: [] })).toBeUndefined();
  });

  // A check beneath check_vcd whose run came between the outage and check_vcd's next (check_vcd
  // every minute, the VMs every 5 or 15) fails once before check_vcd has said so: only the
  // second UNKNOWN in a row raises a problem.
  it.each(beneath)('%s: no trigger fires on a single UNKNOWN', (name, triggersOf) => {
    const template = templates.find((t) => t.template === name)!;
    const onUnknown = triggersOf(template).filter((tr) => /\)=3( and |$)/.test(tr.expression));
    expect(onUnknown.length).toBeGreaterThan(0);
    for (const tr of onUnknown) expect(tr.expression.replace(name in GATED ? gate(name) : '', ''), `${name}: ${tr.name}`).toMatch(/^min\(\/[^,]+,#2\)=3$/);
  });

  // An organisation host whose triggers stay quiet, or page in an outage: docs/troubleshooting.md
  // says what its state item's values mean, by the keys the templates give it.
  it("docs/troubleshooting.md names every organisation template's state item, what 2 and 4 mean there and how to fix {$CLOUDCHECKS.VCD.GROUP}", () => {
    const trouble = readFileSync(join(REPO, 'docs/troubleshooting.md'), 'utf8');
    for (const key of new Set(Object.values(GATED))) expect(trouble, key).toContain(`\`${key}\``);
    for (const [name] of gated) {
      const item = templates.find((t) => t.template === name)!.items!.find((i) => i.key === GATED[name])! as Item & { description: string };
      expect(item.description, name).toContain('2 CRITICAL (down, silent or refusing the login), 3 UNKNOWN, 4 no check_vcd in that group');
    }
    expect(trouble).toMatch(/reads 4 \| 4 is "no check_vcd in that group": `\{\$CLOUDCHECKS\.VCD\.GROUP\}`/);
    expect(trouble).toMatch(/was 2 \(CRITICAL\) within `\{\$CLOUDCHECKS\.VCD\.SETTLE\}`/);
  });

  it('the service trigger it names is the one the service template has', () => {
    const service = templates.find((t) => t.template === 'cloudchecks Cloud Director service')!;
    const down = service.items!.flatMap((i) => i.triggers ?? []).find((tr) => tr.expression === VCD_DOWN)!;
    expect(down.name).toBe('Cloud Director: down, silent or refusing the login');
  });
});
