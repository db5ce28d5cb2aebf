// The Icinga 2 pictures (contrib/icinga2/graphite/cloudchecks.ini for Icinga Web 2's graphite
// module, contrib/grafana/cloudchecks-icinga2-influxdb2.json for Grafana over InfluxDB v2, both
// made by scripts/icinga-graphs.mjs) against the plugins' real perfdata: each check command's
// plugin run against the simulator, its perfdata labels parsed, and named the way Icinga 2 names
// them: the GraphiteWriter's <prefix>.perfdata.<label>.value (EscapeMetricLabel: space, backslash
// and slash become _, :: a dot), the Influxdb2Writer's measurement (the check command) with the
// label in its `metric` tag (commas, equal signs and spaces escaped). Every path and query a
// picture names must find a metric. The real writers' output: test/integration/icinga2.test.ts.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_MODULE } from '../../sim/cluster/module';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { GRAPHS } from '../../scripts/icinga-graphs.mjs';
import { parsePerfdataStrict } from '../support/perfdata-parse';
import { runExecutable } from '../support/spawn';

const REPO = resolve(__dirname, '../..');
const DIST = join(REPO, 'dist');
const BUSY = 'vm-8a1d2b3c-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const FULL_DISK = 'vm-c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f';
const PROD_VDC = '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulatorFromArgs(['--cluster-scenario', 'sick'], [CLUSTER_MODULE, VCD_MODULE]);
});
afterAll(async () => {
  await sim?.close();
});

/** The plugin and options each check command of contrib/icinga2/commands.conf runs, pointed at the simulator. */
function invocation(command: string): [string, string[]] {
  const cluster = ['--url', sim.apis.cluster.httpsUrl, '--ca-file', sim.caFile, '--token-file', sim.apis.cluster.info.tokenFile];
  const vcd = (user: string, org: string) => [
    '-u',
    sim.apis.vcd.httpsUrl,
    '--ca-file',
    sim.caFile,
    '-U',
    user,
    '-o',
    org,
    '--password-file',
    sim.apis.vcd.info.passwordFile,
    '--cache-dir',
    mkdtempSync(join(tmpdir(), 'cc-graphs-cache-')),
  ];
  const tenant = vcd(sim.apis.vcd.info.user, sim.apis.vcd.info.org);
  const system = vcd(sim.apis.vcd.info.providerUser, 'System');
  const table: Record<string, [string, string[]]> = {
    'cloudchecks-nodes': ['check_nodes', [...cluster, '--pods']],
    'cloudchecks-cluster-monitoring': ['check_cluster_monitoring', cluster],
    'cloudchecks-cluster-operators': ['check_cluster_operators', cluster],
    'cloudchecks-apiserver': ['check_apiserver', cluster],
    'cloudchecks-cluster-certs': ['check_cluster_certs', cluster],
    'cloudchecks-cluster-alerts': ['check_cluster_alerts', [...cluster, '--alertmanager-url', sim.apis.cluster.httpsUrl]],
    'cloudchecks-vm-cpu': ['check_vm_cpu', [...tenant, '--vm', BUSY]],
    'cloudchecks-vm-mem': ['check_vm_mem', [...tenant, '--vm', BUSY]],
    'cloudchecks-vm-disk': ['check_vm_disk', [...tenant, '--vm', BUSY]],
    'cloudchecks-vm-snapshot': ['check_vm_snapshot', [...tenant, '--vm', FULL_DISK]],
    'cloudchecks-vm-lease': ['check_vm_lease', [...tenant, '--vm', BUSY]],
    'cloudchecks-vm-fleet': ['check_vm_fleet', tenant],
    'cloudchecks-vdc': ['check_vdc', [...tenant, '--vdc', PROD_VDC]],
    'cloudchecks-pvdc': ['check_pvdc', system],
    'cloudchecks-vcd-service': ['check_vcd', tenant],
    'cloudchecks-vcd-tasks': ['check_vcd_tasks', system],
    'cloudchecks-edge-gateways': ['check_edge_gateways', system],
    'cloudchecks-vcd-backends': ['check_vcd_backends', system],
  };
  if (!table[command]) throw new Error(`no plugin run for ${command}: add it here`);
  return table[command];
}

/** What Icinga's GraphiteWriter makes of a perfdata label (EscapeMetricLabel). */
const graphiteLabel = (label: string) => label.replace(/[ \\/]/g, '_').replace(/::/g, '.');
/** A tag value in InfluxDB's line protocol as Icinga's Influxdb2Writer writes it. */
const influxTag = (value: string) => value.replace(/([, =])/g, '\\$1');

const labelsOf = new Map<string, string[]>();
async function labels(command: string): Promise<string[]> {
  if (!labelsOf.has(command)) {
    const [plugin, argv] = invocation(command);
    const r = await runExecutable(join(DIST, plugin), argv, { env: { PATH: process.env.PATH, HOME: process.env.HOME }, killAfterMs: 30_000 });
    const perfdata = r.stdout.split('\n')[0].split(' | ')[1] ?? '';
    labelsOf.set(
      command,
      parsePerfdataStrict(perfdata).map((m) => m.label),
    );
  }
  return labelsOf.get(command)!;
}

/** The glob of a graphite path (`$label:*x$` and `$label$` macros are wildcards) as a regular expression. */
function globRegExp(path: string): RegExp {
  const glob = path.replace(/\$label(?::([^$]*))?\$/g, (_, pattern: string | undefined) => pattern ?? '*');
  return new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^.]*')}$`);
}

describe('the Icinga 2 graph templates and Grafana dashboard name the plugins’ real perfdata', () => {
  const INI = readFileSync(join(REPO, 'contrib/icinga2/graphite/cloudchecks.ini'), 'utf8');

  it("every graphite template's curve is a path the GraphiteWriter writes for its check command", async () => {
    const sections = [...INI.matchAll(/^\[([^\]]+)\.graph\]\ncheck_command = "([^"]+)"$/gm)].map((m) => ({ name: m[1], command: m[2] }));
    expect(sections.length).toBe(GRAPHS.length);
    for (const { name, command } of sections) {
      const block = new RegExp(`^\\[${name.replace(/[.-]/g, '\\$&')}\\.metrics_filters\\]\\n((?:.+\\n)+)`, 'm').exec(INI)![1];
      const curves = [...block.matchAll(/^(\S+) = "(.+)"$/gm)].map((m) => m[2]);
      expect(curves.length, name).toBeGreaterThan(0);
      // The service name template's prefix as the writer has it: icinga2.<host>.services.<service>.<check command>.
      const prefix = `icinga2.sim.services.svc.${command}`;
      const written = (await labels(command)).map((l) => `${prefix}.perfdata.${graphiteLabel(l)}.value`);
      for (const curve of curves) {
        const re = globRegExp(curve.replace('$service_name_template$', prefix));
        expect(
          written.some((p) => re.test(p)),
          `${name}: ${curve} among ${written.join(' ')}`,
        ).toBe(true);
      }
    }
  }, 120_000);

  it('every Grafana query finds a series the Influxdb2Writer writes: its measurement, its metric tag, the value field', async () => {
    const dashboard = JSON.parse(readFileSync(join(REPO, 'contrib/grafana/cloudchecks-icinga2-influxdb2.json'), 'utf8')) as {
      panels: Array<{ type: string; title: string; targets?: Array<{ query: string }> }>;
    };
    const queries = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ title: p.title, query: t.query })));
    expect(queries.length).toBe(GRAPHS.reduce((n, g) => n + g.series.length, 0));
    for (const { title, query } of queries) {
      const measurement = /r\._measurement == "([^"]+)"/.exec(query)![1];
      const exact = /r\.metric == "([^"]+)"/.exec(query)?.[1];
      const suffix = /r\.metric =~ \/(.+)\//.exec(query)?.[1];
      expect(exact ?? suffix, title).toBeDefined();
      const tags = (await labels(measurement)).map(influxTag);
      const match = (tag: string) => (exact !== undefined ? tag === exact : new RegExp(suffix!).test(tag));
      expect(tags.some(match), `${title}: ${exact ?? suffix} among ${tags.join(' ')}`).toBe(true);
      expect(query).toContain('r._field == "value"');
    }
  }, 120_000);

  it('every check command that prints perfdata has a graph (check_vm_tools prints a state, no figure)', () => {
    const commands = [...readFileSync(join(REPO, 'contrib/icinga2/commands.conf'), 'utf8').matchAll(/^object CheckCommand "([^"]+)"/gm)].map((m) => m[1]);
    const drawn = new Set(GRAPHS.map((g) => g.command));
    expect(commands.filter((c) => !drawn.has(c))).toEqual(['cloudchecks-vm-tools']);
  });
});
