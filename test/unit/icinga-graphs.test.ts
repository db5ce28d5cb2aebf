// contrib/icinga2/graphite/cloudchecks.ini and contrib/grafana/cloudchecks-icinga2-influxdb2.json
// are made by scripts/icinga-graphs.mjs from one description; their paths and queries against the
// plugins' perfdata: test/e2e/icinga-graphs.test.ts; against Icinga's writers:
// test/integration/icinga2.test.ts.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GRAPHS, fluxQuery, graphitePath } from '../../scripts/icinga-graphs.mjs';

const REPO = resolve(__dirname, '../..');

describe('the Icinga 2 pictures', () => {
  it('are what scripts/icinga-graphs.mjs makes (edit its description, then run it)', () => {
    const r = spawnSync(process.execPath, [join(REPO, 'scripts/icinga-graphs.mjs'), '--check'], { encoding: 'utf8' });
    expect(r.stderr + r.stdout).toMatch(/are those of scripts\/icinga-graphs\.mjs/);
    expect(r.status).toBe(0);
  });

  it('name each check command of commands.conf, with unique template names', () => {
    const conf = readFileSync(join(REPO, 'contrib/icinga2/commands.conf'), 'utf8');
    for (const g of GRAPHS) expect(conf, g.command).toContain(`object CheckCommand "${g.command}"`);
    expect(new Set(GRAPHS.map((g) => g.name)).size).toBe(GRAPHS.length);
  });

  it("write a label as the graphite module's path (a suffix as a macro's wildcard) and as a Flux filter on the metric tag", () => {
    expect(graphitePath('cpu_usage')).toBe('$service_name_template$.perfdata.cpu_usage.value');
    expect(graphitePath('*__cpu_pct')).toBe('$service_name_template$.perfdata.$label:*__cpu_pct$.value');
    expect(fluxQuery('cloudchecks-vm-cpu', 'cpu_usage')).toContain(
      'r._measurement == "cloudchecks-vm-cpu" and r._field == "value" and r.metric == "cpu_usage"',
    );
    expect(fluxQuery('cloudchecks-vdc', '*__cpu_pct')).toContain('r.metric =~ /__cpu_pct$/');
  });

  it('the Grafana dashboard is a JSON model Grafana imports: unique panel ids, grid positions within 24 columns, its variables', () => {
    const d = JSON.parse(readFileSync(join(REPO, 'contrib/grafana/cloudchecks-icinga2-influxdb2.json'), 'utf8')) as {
      uid: string;
      panels: Array<{ id: number; type: string; gridPos: { x: number; w: number } }>;
      templating: { list: Array<{ name: string }> };
    };
    expect(d.uid).toMatch(/^[a-z0-9-]{1,40}$/);
    expect(new Set(d.panels.map((p) => p.id)).size).toBe(d.panels.length);
    for (const p of d.panels) expect(p.gridPos.x + p.gridPos.w).toBeLessThanOrEqual(24);
    expect(d.templating.list.map((v) => v.name)).toEqual(['datasource', 'bucket', 'hostname']);
    expect(d.panels.filter((p) => p.type === 'timeseries')).toHaveLength(GRAPHS.length);
  });
});
