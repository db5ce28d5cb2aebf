// The pictures of the Zabbix templates (graphs, graph prototypes, dashboards), made by
// scripts/zabbix-graphs.mjs, read as Zabbix reads them: each graph names items of its own
// template (a graph prototype those of its own discovery rule), each dashboard widget a graph of
// its template, and the 7.0 export has the same dashboards in 7.0's widget format. Drawn in real
// servers by test/integration/zabbix.test.ts.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const REPO = resolve(__dirname, '../..');

interface GraphItem {
  drawtype?: string;
  color: string;
  item: { host: string; key: string };
}
interface Graph {
  uuid: string;
  name: string;
  ymax_type_1?: string;
  graph_items: GraphItem[];
}
interface Widget {
  type: string;
  name: string;
  x?: string;
  width: string;
  fields: Array<{ type: string; name: string; value: string | { host: string; name: string } }>;
}
interface Template {
  template: string;
  items?: Array<{ key: string; value_type?: string }>;
  discovery_rules?: Array<{ key: string; item_prototypes?: Array<{ key: string; value_type?: string }>; graph_prototypes?: Graph[] }>;
  dashboards?: Array<{ uuid: string; name: string; pages: Array<{ widgets: Widget[] }> }>;
}
interface Export {
  zabbix_export: { templates: Template[]; graphs?: Graph[] };
}
const read = (file: string) => (parse(readFileSync(join(REPO, 'contrib/zabbix', file), 'utf8')) as Export).zabbix_export;
const six = read('cloudchecks_templates.yaml');
const seven = read('cloudchecks_templates_7.0.yaml');
const NUMERIC = (i: { value_type?: string }) => !['TEXT', 'CHAR', 'LOG'].includes(i.value_type ?? 'UNSIGNED');

describe('the graphs and dashboards of the Zabbix templates', () => {
  it('are what scripts/zabbix-graphs.mjs makes (edit its description, then run it and the 7.0 script)', () => {
    const r = spawnSync(process.execPath, [join(REPO, 'scripts/zabbix-graphs.mjs'), '--check'], { encoding: 'utf8' });
    expect(r.stderr + r.stdout).toMatch(/has the graphs and dashboards of scripts\/zabbix-graphs\.mjs/);
    expect(r.status).toBe(0);
  });

  it('each graph draws numeric items of its own template, each graph prototype those of its own rule; the graphs are grouped by template in template order', () => {
    const graphs = six.graphs ?? [];
    const order = six.templates.map((t) => t.template);
    const hostOrder = graphs.map((g) => order.indexOf(g.graph_items[0].item.host));
    expect(hostOrder).toEqual([...hostOrder].sort((a, b) => a - b));
    for (const g of graphs) {
      const host = g.graph_items[0].item.host;
      const t = six.templates.find((x) => x.template === host)!;
      const keys = new Set((t.items ?? []).filter(NUMERIC).map((i) => i.key));
      for (const gi of g.graph_items) {
        expect(gi.item.host, g.name).toBe(host);
        expect(keys.has(gi.item.key), `${host}: graph ${g.name} draws ${gi.item.key}`).toBe(true);
      }
    }
    for (const t of six.templates)
      for (const r of t.discovery_rules ?? []) {
        const keys = new Set((r.item_prototypes ?? []).filter(NUMERIC).map((i) => i.key));
        for (const g of r.graph_prototypes ?? [])
          for (const gi of g.graph_items) {
            expect(gi.item.host, g.name).toBe(t.template);
            expect(keys.has(gi.item.key), `${t.template}: graph prototype ${g.name} draws ${gi.item.key}`).toBe(true);
          }
      }
  });

  it('every template draws: a graph or graph prototype for each of its numeric figures but the states, and one dashboard', () => {
    for (const t of six.templates) {
      const drawn = new Set([
        ...(six.graphs ?? []).flatMap((g) => g.graph_items.filter((gi) => gi.item.host === t.template).map((gi) => gi.item.key)),
        ...(t.discovery_rules ?? []).flatMap((r) => (r.graph_prototypes ?? []).flatMap((g) => g.graph_items.map((gi) => gi.item.key))),
      ]);
      const figures = [...(t.items ?? []), ...(t.discovery_rules ?? []).flatMap((r) => r.item_prototypes ?? [])]
        .filter(NUMERIC)
        // A state (0-3) is the problems' business; the node and operator states are drawn (one per node).
        .map((i) => i.key)
        .filter((k) => !/\.code(\[|$)|session_cache_unusable|user_workload|\.(snapshot|tools|lease)\.code|alerts\.pipeline/.test(k));
      expect(
        figures.filter((k) => !drawn.has(k)),
        t.template,
      ).toEqual([]);
      expect(t.dashboards, t.template).toHaveLength(1);
    }
  });

  it('draws what the issue asks per VM, per VDC and provider VDC (thresholds as lines in the warning and critical colours), per cluster and for check_vcd and the fleet', () => {
    const prototypes = (template: string) => six.templates.find((t) => t.template === template)!.discovery_rules!.flatMap((r) => r.graph_prototypes ?? []);
    const names = (list: Graph[]) => list.map((g) => g.name);
    for (const t of ['cloudchecks Cloud Director VMs', 'cloudchecks Cloud Director VM fleet', 'cloudchecks Cloud Director VM fleet trapper'])
      expect(names(prototypes(t))).toEqual(expect.arrayContaining(['VM {#VM.NAME}: CPU usage', 'VM {#VM.NAME}: memory usage', 'VM {#VM.NAME}: disk used']));
    for (const t of ['cloudchecks Cloud Director VDCs', 'cloudchecks Cloud Director provider VDCs']) {
      const list = prototypes(t);
      expect(list).toHaveLength(3);
      for (const g of list) {
        expect(g.ymax_type_1, g.name).toBe('FIXED');
        expect(g.graph_items.map((gi) => gi.color)).toEqual([expect.not.stringMatching(/^(FFA000|E53935)$/), 'FFA000', 'E53935']);
        expect(g.graph_items[1].item.key).toMatch(/_warning\[/);
        expect(g.graph_items[2].item.key).toMatch(/_critical\[/);
      }
      expect(list.map((g) => g.graph_items[0].item.key).join(' ')).toMatch(/cpu_pct.*memory_pct.*storage_pct/);
    }
    const keysOf = (template: string) => (six.graphs ?? []).flatMap((g) => g.graph_items.filter((gi) => gi.item.host === template).map((gi) => gi.item.key));
    expect(keysOf('cloudchecks Kubernetes nodes')).toEqual(
      expect.arrayContaining(['cloudchecks.nodes.healthy', 'cloudchecks.nodes.failing', 'cloudchecks.nodes.pods_max_pct']),
    );
    expect(keysOf('cloudchecks control plane')).toContain('cloudchecks.certs.cert_days_left');
    expect(keysOf('cloudchecks Cloud Director service')).toEqual(['cloudchecks.vcd.versions_time', 'cloudchecks.vcd.login_time', 'cloudchecks.vcd.query_time']);
    for (const t of ['cloudchecks Cloud Director VM fleet', 'cloudchecks Cloud Director VM fleet trapper'])
      expect(keysOf(t)).toEqual(['cloudchecks.fleet.vms_read', 'cloudchecks.fleet.seconds']);
  });

  it("each dashboard's widgets show the template's own graphs and graph prototypes, all of them, within 6.0's grid of 24", () => {
    for (const t of six.templates) {
      const widgets = t.dashboards![0].pages.flatMap((p) => p.widgets);
      const graphs = (six.graphs ?? []).filter((g) => g.graph_items[0].item.host === t.template).map((g) => g.name);
      const protos = (t.discovery_rules ?? []).flatMap((r) => (r.graph_prototypes ?? []).map((g) => g.name));
      const shown = (type: string, field: string) =>
        widgets
          .filter((w) => w.type === type)
          .map((w) => w.fields.find((f) => f.type === field && f.name === 'graphid')!.value as { host: string; name: string })
          .map((v) => {
            expect(v.host).toBe(t.template);
            return v.name;
          });
      expect(shown('GRAPH_CLASSIC', 'GRAPH'), t.template).toEqual(graphs);
      expect(shown('GRAPH_PROTOTYPE', 'GRAPH_PROTOTYPE'), t.template).toEqual(protos);
      for (const w of widgets) expect(Number(w.x ?? 0) + Number(w.width)).toBeLessThanOrEqual(24);
    }
  });

  it("7.0's dashboards are the same widgets as 7.0 names them: graph and graphprototype modules, graphid.0, a unique reference, a grid of 72", () => {
    for (const t of seven.templates) {
      const w6 = six.templates.find((x) => x.template === t.template)!.dashboards![0].pages[0].widgets;
      const w7 = t.dashboards![0].pages[0].widgets;
      expect(w7.map((w) => w.type)).toEqual(w6.map((w) => ({ GRAPH_CLASSIC: 'graph', GRAPH_PROTOTYPE: 'graphprototype' })[w.type]));
      w7.forEach((w, n) => {
        expect(Number(w.width)).toBe(3 * Number(w6[n].width));
        expect(Number(w.x ?? 0)).toBe(3 * Number(w6[n].x ?? 0));
        expect(w.fields.find((f) => f.name === 'graphid.0')!.value).toEqual(w6[n].fields.find((f) => f.name === 'graphid')!.value);
      });
      const refs = w7.map((w) => w.fields.find((f) => f.name === 'reference')!.value as string);
      expect(refs.every((r) => /^[A-Z]{5}$/.test(r))).toBe(true);
      expect(new Set(refs).size).toBe(refs.length);
    }
    expect(seven.graphs).toEqual(six.graphs);
  });
});
