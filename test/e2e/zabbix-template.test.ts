// The Zabbix template's dependent items read the plugins' JSON with JSONPath (and one
// JavaScript step). Each step it uses is evaluated here against what the built plugins really
// print for the simulator, so a renamed metric or field breaks a test, not a production
// dashboard. The whole template in a real Zabbix server: test/integration/zabbix.test.ts.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import PLUGINS from '../../plugins/registry.json';
import { CLUSTER_MODULE } from '../../sim/cluster/module';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { runExecutable } from '../support/spawn';

const REPO = resolve(__dirname, '../..');
const TEMPLATE = parse(readFileSync(join(REPO, 'contrib/zabbix/cloudchecks_templates.yaml'), 'utf8')) as {
  zabbix_export: {
    templates: Array<{
      template: string;
      items?: Item[];
      discovery_rules?: Array<{ key: string; item_prototypes?: Item[] }>;
      macros?: Array<{ macro: string; value: string }>;
    }>;
  };
};
const VM = 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70';

interface Item {
  key: string;
  type?: string;
  master_item?: { key: string };
  preprocessing?: Array<{ type: string; parameters: string[]; error_handler?: string; error_handler_params?: string }>;
}

let sim: Simulator;
/** Plugin output by plugin name: the JSON of a healthy run. */
const outputs: Record<string, Record<string, unknown>> = {};
let nodeDiscovery: Array<Record<string, string>> = [];
let operatorDiscovery: Array<Record<string, string>> = [];
let vmDiscovery: Array<Record<string, string>> = [];
let vdcDiscovery: Array<Record<string, string>> = [];
let pvdcDiscovery: Array<Record<string, string>> = [];
/** The simulator's VDC with CPU and memory limits. */
const VDC = 'acme-prod';
/** The simulator's provider VDC with CPU and memory capacity. */
const PVDC = 'pvdc-gold-01';
/** The trapper item the fleet's trapper template feeds with check_vm_fleet --submit zabbix. */
const TRAPPER_MASTERS: Record<string, string> = { 'cloudchecks.fleet.json': 'check_vm_fleet' };
let vmArgs: string[] = [];

beforeAll(async () => {
  sim = await startSimulatorFromArgs(['--cluster-scenario', 'sick'], [CLUSTER_MODULE, VCD_MODULE]);
  const c = sim.apis.cluster;
  const v = sim.apis.vcd;
  const cluster = ['--url', c.httpsUrl, '--token-file', c.info.tokenFile, '--ca-file', sim.caFile];
  vmArgs = ['--url', v.httpsUrl, '--user', 'monitor', '--org', 'acme', '--password-file', v.info.passwordFile, '--ca-file', sim.caFile];
  const vm = [...vmArgs, '--vm', VM, '--no-cache'];
  for (const [plugin, args] of [
    // As its own ini section has it for the Kubernetes nodes template's pods items (docs/zabbix.md).
    ['check_nodes', [...cluster, '--pods']],
    ['check_cluster_monitoring', cluster],
    ['check_cluster_operators', cluster],
    ['check_apiserver', cluster],
    ['check_cluster_certs', cluster],
    ['check_vm_cpu', vm],
    ['check_vm_disk', vm],
    ['check_vm_mem', vm],
    ['check_vm_snapshot', vm],
    ['check_vm_tools', vm],
    ['check_vm_lease', vm],
    // With the hygiene services, as the templates' snapshot, tools and lease items need (services= in the ini section).
    ['check_vm_fleet', [...vmArgs, '--compact', '--services', 'cpu,mem,disk,snapshot,tools,lease']],
  ] as const) {
    const r = await runExecutable(join(REPO, 'dist', plugin), [...args, '--output', 'json']);
    outputs[plugin] = JSON.parse(r.stdout) as Record<string, unknown>;
  }
  nodeDiscovery = JSON.parse((await runExecutable(join(REPO, 'dist/check_nodes'), [...cluster, '--discovery'])).stdout) as typeof nodeDiscovery;
  operatorDiscovery = JSON.parse(
    (await runExecutable(join(REPO, 'dist/check_cluster_operators'), [...cluster, '--discovery'])).stdout,
  ) as typeof operatorDiscovery;
  vmDiscovery = JSON.parse((await runExecutable(join(REPO, 'dist/check_vm_cpu'), [...vmArgs, '--no-cache', '--discovery'])).stdout) as typeof vmDiscovery;
  vdcDiscovery = JSON.parse((await runExecutable(join(REPO, 'dist/check_vdc'), [...vmArgs, '--no-cache', '--discovery'])).stdout) as typeof vdcDiscovery;
  // A VDC with limits, so that the percentages exist.
  const vdc = vdcDiscovery.find((d) => d['{#VDC.NAME}'] === VDC)!['{#VDC.ID}'];
  outputs.check_vdc = JSON.parse(
    (await runExecutable(join(REPO, 'dist/check_vdc'), [...vmArgs, '--no-cache', '--vdc', vdc, '--output', 'json'])).stdout,
  ) as Record<string, unknown>;
  // The provider's checks, as the System account the provider VDCs and service templates name.
  const system = ['--url', v.httpsUrl, '--user', v.info.providerUser, '--org', 'System', '--password-file', v.info.passwordFile, '--ca-file', sim.caFile];
  outputs.check_vcd = JSON.parse((await runExecutable(join(REPO, 'dist/check_vcd'), [...system, '--no-cache', '--output', 'json'])).stdout) as Record<
    string,
    unknown
  >;
  pvdcDiscovery = JSON.parse((await runExecutable(join(REPO, 'dist/check_pvdc'), [...system, '--no-cache', '--discovery'])).stdout) as typeof pvdcDiscovery;
  const pvdc = pvdcDiscovery.find((d) => d['{#PVDC.NAME}'] === PVDC)!['{#PVDC.ID}'];
  outputs.check_pvdc = JSON.parse(
    (await runExecutable(join(REPO, 'dist/check_pvdc'), [...system, '--no-cache', '--pvdc', pvdc, '--output', 'json'])).stdout,
  ) as Record<string, unknown>;
  // The newer templates' checks, as their ini sections have them: the sick cluster's Alertmanager,
  // and the System account for the whole vCD (the datastores' figures read with them).
  for (const [plugin, args] of [
    ['check_cluster_alerts', [...cluster, '--alertmanager-url', c.httpsUrl]],
    ['check_vcd_tasks', [...system, '--no-cache']],
    ['check_edge_gateways', [...system, '--no-cache']],
    ['check_vcd_backends', [...system, '--no-cache']],
  ] as const) {
    const r = await runExecutable(join(REPO, 'dist', plugin), [...args, '--output', 'json']);
    outputs[plugin] = JSON.parse(r.stdout) as Record<string, unknown>;
  }
});
afterAll(() => sim?.close());

/** Every dependent item (and prototype) with the plugin of its master item. */
function dependentItems(): Array<{ item: Item; plugin: string; proto: boolean }> {
  const found: Array<{ item: Item; plugin: string; proto: boolean }> = [];
  for (const t of TEMPLATE.zabbix_export.templates) {
    const lists = [{ items: t.items ?? [], proto: false }, ...(t.discovery_rules ?? []).map((r) => ({ items: r.item_prototypes ?? [], proto: true }))];
    for (const { items, proto } of lists) {
      for (const item of items.filter((i) => i.type === 'DEPENDENT'))
        found.push({ item, plugin: /^check_\w+/.exec(item.master_item!.key)?.[0] ?? TRAPPER_MASTERS[item.master_item!.key], proto });
    }
  }
  return found;
}

/**
 * The JSONPath forms the template uses: member steps (`.name`, `['name']`), filters on a list
 * (`[?(@.key=='v')]`, `[?(@.key =~ 're')]`), `.first()` and `.max()`.
 */
function evaluate(doc: Record<string, unknown>, path: string, macros: Record<string, string>): unknown {
  const p = path.replace(/\{#[\w.]+\}/g, (m) => macros[m] ?? m);
  const step = /^(?:\.(\w+)\(\)|\.(\w+)|\['([^']*)'\]|\[\?\(@\.(\w+) *(==|=~) *'([^']*)'\)\])/;
  let rest = p.startsWith('$') ? p.slice(1) : p;
  let value: unknown = doc;
  let many = false;
  const member = (v: unknown, name: string) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[name] : undefined);
  while (rest !== '') {
    const m = step.exec(rest);
    if (!m) throw new Error(`JSONPath form not understood by this test: ${path}`);
    rest = rest.slice(m[0].length);
    const [, call, name, quoted, key, op, operand] = m;
    if (call === 'first') {
      value = (value as unknown[])[0];
      many = false;
    } else if (call === 'max') {
      value = (value as unknown[]).length > 0 ? Math.max(...(value as number[])) : undefined;
      many = false;
    } else if (call !== undefined) throw new Error(`JSONPath function not understood by this test: ${path}`);
    else if (key !== undefined) {
      const match = (e: unknown) => (op === '==' ? member(e, key) === operand : new RegExp(operand).test(String(member(e, key))));
      value = ((value as unknown[]) ?? []).filter(match);
      many = true;
    } else {
      const field = name ?? quoted;
      value = many ? (value as unknown[]).map((e) => member(e, field)) : member(value, field);
    }
  }
  return value;
}

/** Every template's user macros with their values (the fleet templates agree on the ones they share). */
const MACROS: Record<string, string> = Object.fromEntries(
  TEMPLATE.zabbix_export.templates.flatMap((t) => (t.macros ?? []).map((m) => [m.macro, m.value] as const)),
);
const withMacros = (text: string) => text.replace(/\{\$[\w.]+\}/g, (m) => MACROS[m] ?? m);

/** A JAVASCRIPT step as Zabbix runs it: the parameter is a function body of `value`. */
function runJavascript(body: string, value: string): unknown {
  return new Function('value', body)(value) as unknown;
}

describe('contrib/zabbix template against real plugin output', () => {
  it('every JSONPath of every dependent item finds a value in what its plugin prints', () => {
    const items = dependentItems();
    expect(items.length).toBeGreaterThan(30);
    const macros = {
      '{#NODE}': nodeDiscovery[0]['{#NODE}'],
      '{#OPERATOR}': operatorDiscovery[0]['{#OPERATOR}'],
      '{#VM.ID}': VM,
      '{#VDC.ID}': vdcDiscovery.find((d) => d['{#VDC.NAME}'] === VDC)!['{#VDC.ID}'],
      '{#PVDC.ID}': pvdcDiscovery.find((d) => d['{#PVDC.NAME}'] === PVDC)!['{#PVDC.ID}'],
    };
    const plugins = new Set<string>();
    for (const { item, plugin } of items) {
      let value: unknown = JSON.stringify(outputs[plugin]);
      for (const step of item.preprocessing ?? []) {
        if (step.type === 'MATCHES_REGEX') {
          expect(String(value), `${plugin}: ${item.key}: ${step.parameters[0]}`).toMatch(new RegExp(step.parameters[0]));
          continue;
        }
        if (step.type === 'DISCARD_UNCHANGED_HEARTBEAT') continue;
        if (step.type === 'REGEX') {
          // The thresholds: a plain number is the line drawn (Zabbix's output template \\1).
          const m = new RegExp(step.parameters[0]).exec(String(value));
          expect(m, `${plugin}: ${item.key}: ${step.parameters[0]} on ${String(value)}`).not.toBeNull();
          value = m![1];
          continue;
        }
        // Zabbix hands a JSONPath's object or list on as its JSON text; user macros in a step are their template values.
        let found =
          step.type === 'JSONPATH' ? evaluate(outputs[plugin], step.parameters[0], macros) : runJavascript(withMacros(step.parameters[0]), String(value));
        // A step whose failure sets a value (Zabbix's "Custom on fail: set value to") takes it.
        if (found === undefined && step.error_handler === 'CUSTOM_VALUE') found = step.error_handler_params;
        value = found !== null && typeof found === 'object' && !Array.isArray(found) ? JSON.stringify(found) : found;
        expect(value, `${plugin}: ${item.key}: ${step.parameters[0]}`).not.toBeUndefined();
        expect(value, `${plugin}: ${item.key}: ${step.parameters[0]}`).not.toBeNull();
      }
      plugins.add(plugin);
    }
    expect([...plugins].sort()).toEqual([...PLUGINS].sort());
  });

  it('operator discovery names match the items the operator prototypes look up (the cluster version item aside)', () => {
    const names = (outputs.check_cluster_operators.items as Array<{ name: string }>)
      .map((i) => i.name)
      .filter((n) => n !== 'clusterversion')
      .sort();
    expect(operatorDiscovery.map((d) => d['{#OPERATOR}']).sort()).toEqual(names);
    expect(names).toHaveLength(33);
  });

  it('node discovery names match the items the node prototypes look up', () => {
    const items = outputs.check_nodes.items as Array<{ name: string; text: string }>;
    const names = [...new Set(items.map((i) => i.name))].sort();
    expect(nodeDiscovery.map((d) => d['{#NODE}']).sort()).toEqual(names);
    // With --pods, a node near its pod limit has a second item, after its health one: the
    // prototypes' .first() reads the health.
    for (const name of names) expect(items.find((i) => i.name === name)!.text, name).not.toMatch(/ pods \(\d+%\)$/);
  });

  it('VM discovery gives the macros the VM prototypes and the rule filter use', () => {
    const rule = TEMPLATE.zabbix_export.templates.flatMap((t) => t.discovery_rules ?? []).find((r) => r.key.startsWith('check_vm_cpu['))!;
    const used = new Set(JSON.stringify(rule).match(/\{#[\w.]+\}/g));
    expect([...used].sort()).toEqual(['{#VM.ID}', '{#VM.NAME}', '{#VM.ORG}', '{#VM.STATUS}', '{#VM.VAPP}']);
    expect(vmDiscovery.length).toBeGreaterThan(3);
    for (const vm of vmDiscovery) {
      for (const m of used) expect(typeof vm[m], `${m} in ${JSON.stringify(vm)}`).toBe('string');
      expect(vm['{#VM.ID}']).toMatch(/^vm-[0-9a-f-]{36}$/);
    }
    // The default status filter keeps the VMs that have current metrics.
    expect(vmDiscovery.find((v) => v['{#VM.ID}'] === VM)?.['{#VM.STATUS}']).toMatch(/^POWERED_ON$/);
  });

  it('the session-cache item: 0 with a working cache, 1 when the cache cannot be written', async () => {
    const step = dependentItems().find(({ item }) => item.key === 'cloudchecks.vm.session_cache_unusable')!.item.preprocessing![0];
    expect(step.type).toBe('JAVASCRIPT');
    const dir = mkdtempSync(join(tmpdir(), 'cc-zbx-cache-'));
    const good = await runExecutable(join(REPO, 'dist/check_vm_cpu'), [...vmArgs, '--vm', VM, '--cache-dir', join(dir, 'cache'), '--output', 'json']);
    writeFileSync(join(dir, 'file'), '');
    const bad = await runExecutable(join(REPO, 'dist/check_vm_cpu'), [...vmArgs, '--vm', VM, '--cache-dir', join(dir, 'file', 'cache'), '--output', 'json']);
    expect(good.code).toBe(0);
    expect(bad.code).toBe(0);
    expect(runJavascript(step.parameters[0], good.stdout)).toBe(0);
    expect(runJavascript(step.parameters[0], bad.stdout)).toBe(1);
    const item = (JSON.parse(bad.stdout) as { items: Array<{ name: string; text: string }> }).items.find((i) => i.name === 'session-cache');
    expect(item?.text).toMatch(/session cache .*file\/cache unusable \(ENOTDIR\)[;,] logging in without it/);
  });
});
