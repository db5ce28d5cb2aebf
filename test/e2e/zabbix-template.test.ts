// The Zabbix template's dependent items read the plugins' JSON with JSONPath. Each path it
// uses is evaluated here against what the built plugins really print for the simulator, so
// a renamed metric or field breaks a test, not a production dashboard.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_MODULE } from '../../sim/cluster/module';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { runExecutable } from '../support/spawn';

const REPO = resolve(__dirname, '../..');
const TEMPLATE = readFileSync(join(REPO, 'contrib/zabbix/cloudchecks_templates.yaml'), 'utf8');
const VM = 'vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70';
let sim: Simulator;
const outputs: Record<string, Record<string, unknown>> = {};
let discovered: Array<Record<string, string>> = [];

beforeAll(async () => {
  sim = await startSimulatorFromArgs(['--cluster-scenario', 'sick'], [CLUSTER_MODULE, VCD_MODULE]);
  const c = sim.apis.cluster;
  const v = sim.apis.vcd;
  const nodes = ['--url', c.httpsUrl, '--token-file', c.info.tokenFile, '--ca-file', sim.caFile];
  const vm = ['--url', v.httpsUrl, '--user', 'monitor', '--org', 'acme', '--password-file', v.info.passwordFile, '--ca-file', sim.caFile, '--vm', VM, '--no-cache'];
  for (const [plugin, args] of [['check_nodes', nodes], ['check_vm_cpu', vm], ['check_vm_disk', vm], ['check_vm_mem', vm]] as const) {
    const r = await runExecutable(join(REPO, 'dist', plugin), [...args, '--output', 'json']);
    outputs[plugin] = JSON.parse(r.stdout) as Record<string, unknown>;
  }
  const d = await runExecutable(join(REPO, 'dist/check_nodes'), [...nodes, '--discovery']);
  discovered = JSON.parse(d.stdout) as Array<Record<string, string>>;
});
afterAll(() => sim?.close());

/** Each JSONPATH parameter with the plugin of the master item that follows it. */
function jsonPaths(): Array<{ path: string; plugin: string }> {
  const found: Array<{ path: string; plugin: string }> = [];
  const lines = TEMPLATE.split('\n');
  lines.forEach((line, i) => {
    if (!/type: JSONPATH/.test(line)) return;
    const path = lines[i + 2].trim().replace(/^- /, '').replace(/^'(.*)'$/, '$1').replace(/''/g, "'");
    const master = lines.slice(i).find((l) => /key: 'check_\w+\[/.test(l));
    found.push({ path, plugin: /check_\w+/.exec(master ?? '')![0] });
  });
  return found;
}

/** The few JSONPath forms the template uses: $.field, and $.list[?(@.key=='v')].field.first(). */
function evaluate(doc: Record<string, unknown>, path: string, macros: Record<string, string>): unknown {
  const p = path.replace(/\{#\w+\}/g, (m) => macros[m] ?? m);
  const simple = /^\$\.(\w+)$/.exec(p);
  if (simple) return doc[simple[1]];
  const filter = /^\$\.(\w+)\[\?\(@\.(\w+)=='([^']*)'\)\]\.(\w+)\.first\(\)$/.exec(p);
  if (!filter) throw new Error(`JSONPath form not understood by this test: ${path}`);
  const [, list, key, value, field] = filter;
  const hit = (doc[list] as Array<Record<string, unknown>>).find((e) => e[key] === value);
  return hit?.[field];
}

describe('contrib/zabbix template against real plugin output', () => {
  it('uses JSONPaths that find a value in what each plugin prints', () => {
    const paths = jsonPaths();
    expect(paths.length).toBeGreaterThan(8);
    const node = discovered[0]['{#NODE}'];
    for (const { path, plugin } of paths) {
      const value = evaluate(outputs[plugin], path, { '{#NODE}': node });
      expect(value, `${plugin}: ${path}`).not.toBeUndefined();
      expect(value, `${plugin}: ${path}`).not.toBeNull();
    }
  });

  it('discovery names match the items the node prototypes look up', () => {
    const names = (outputs.check_nodes.items as Array<{ name: string }>).map((i) => i.name).sort();
    expect(discovered.map((d) => d['{#NODE}']).sort()).toEqual(names);
  });
});
