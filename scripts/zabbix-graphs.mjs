#!/usr/bin/env node
// The pictures of contrib/zabbix/cloudchecks_templates.yaml: its graphs (the top-level `graphs:`
// section, grouped by template in template order), the graph prototypes of its discovery rules
// and one dashboard per template are made by this script from the short description below, so
// that every graph names keys of its own template and every uuid stays the same from run to
// run. Edit PICTURES, then run `node scripts/zabbix-graphs.mjs` and
// `node scripts/zabbix-templates-7.0.mjs` (test/unit/zabbix-graphs.test.ts fails while the file
// differs; `--check` says so too). The rest of the file is left as it is, line for line.
// Dashboards differ between the two export formats: 6.0 names widget types in capitals
// (GRAPH_CLASSIC, GRAPH_PROTOTYPE) on a grid 24 wide, with a `graphid` field; 7.0 names the
// widget modules (graph, graphprototype) on a grid 72 wide, with `graphid.0` and a `reference`.
// `dashboardLines(template, '7.0')` is what the 7.0 script writes in place of the 6.0 block.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SOURCE = join(REPO, 'contrib/zabbix/cloudchecks_templates.yaml');

/** Line colours: series in order; thresholds by level. */
const PALETTE = ['1A7C11', '2774A4', 'F63100', 'A54F10', '6C59DC', 'AC8C14', 'FC6EA3', '611F27'];
const THRESHOLD = { warning: 'FFA000', critical: 'E53935' };

// A graph: its name, its items (keys of its own template; a threshold item's key ends in
// _warning[…] or _critical[…] and is drawn in the warning or critical colour), and `percent`
// for a 0-100 % axis. Thresholds are solid lines: a dashed line (two pixels on, two off) loses
// a segment shorter than its pattern.
const VM_PROTOTYPES = (prefix) => [
  { name: 'VM {#VM.NAME}: CPU usage', percent: true, items: [`${prefix}.cpu.usage[{#VM.ID}]`] },
  { name: 'VM {#VM.NAME}: memory usage', percent: true, items: [`${prefix}.mem.usage[{#VM.ID}]`] },
  { name: 'VM {#VM.NAME}: disk used', percent: true, items: [`${prefix}.disk.used_pct[{#VM.ID}]`] },
];
const FLEET = {
  graphs: [
    { name: 'VM fleet: VMs read', items: ['cloudchecks.fleet.vms_read'] },
    { name: 'VM fleet: run time', items: ['cloudchecks.fleet.seconds'] },
  ],
  prototypes: {
    'cloudchecks.fleet.vms': [
      ...VM_PROTOTYPES('cloudchecks.fleet.vm'),
      { name: 'VM {#VM.NAME}: oldest snapshot age', items: ['cloudchecks.fleet.vm.snapshot.age[{#VM.ID}]'] },
    ],
  },
};
/** Per VDC or provider VDC: one graph per resource, its percentage between its two threshold lines. */
const CAPACITY = (kind, label, name, id, of) =>
  [
    ['CPU', 'cpu_pct', 'cpu'],
    ['memory', 'memory_pct', 'memory'],
    ['storage (fullest policy)', 'storage_pct', 'storage'],
  ].map(([word, pct, res]) => ({
    name: `${label} ${name}: ${word} of ${of}`,
    percent: true,
    items: [`cloudchecks.${kind}.${pct}[${id}]`, `cloudchecks.${kind}.${res}_warning[${id}]`, `cloudchecks.${kind}.${res}_critical[${id}]`],
  }));

/** What each template draws: graphs of its items, graph prototypes per discovery rule (by key). */
export const PICTURES = {
  'cloudchecks Kubernetes nodes': {
    graphs: [
      {
        name: 'Nodes: healthy and failing',
        items: ['cloudchecks.nodes.total', 'cloudchecks.nodes.healthy', 'cloudchecks.nodes.failing', 'cloudchecks.nodes.cordoned'],
      },
      { name: 'Nodes: pods', items: ['cloudchecks.nodes.pods'] },
      { name: 'Nodes: pods of the busiest node', percent: true, items: ['cloudchecks.nodes.pods_max_pct'] },
    ],
    prototypes: {
      'check_nodes["--extra-opts","{$CLOUDCHECKS.SECTION}@{$CLOUDCHECKS.INI}","--discovery"]': [
        { name: 'Node {#NODE}: state', items: ['cloudchecks.node.state[{#NODE}]'] },
      ],
    },
  },
  'cloudchecks cluster monitoring': {
    graphs: [{ name: 'Monitoring stack: pods', items: ['cloudchecks.monitoring.pods', 'cloudchecks.monitoring.pods_ready'] }],
  },
  'cloudchecks cluster operators': {
    graphs: [
      {
        name: 'Cluster operators',
        items: [
          'cloudchecks.operators.operators',
          'cloudchecks.operators.available',
          'cloudchecks.operators.degraded',
          'cloudchecks.operators.progressing',
          'cloudchecks.operators.unavailable',
        ],
      },
    ],
    prototypes: {
      'check_cluster_operators["--extra-opts","{$CLOUDCHECKS.OPERATORS.SECTION}@{$CLOUDCHECKS.INI}","--discovery"]': [
        { name: 'Operator {#OPERATOR}: state', items: ['cloudchecks.operator.state[{#OPERATOR}]'] },
      ],
    },
  },
  'cloudchecks control plane': {
    graphs: [
      { name: 'API server: response time', items: ['cloudchecks.apiserver.readyz_time', 'cloudchecks.apiserver.livez_time'] },
      { name: 'API server: /readyz checks failing', items: ['cloudchecks.apiserver.readyz_failed'] },
      { name: 'Cluster certificates: days left', items: ['cloudchecks.certs.cert_days_left'] },
      { name: 'Cluster certificates: CSRs pending', items: ['cloudchecks.certs.csr_pending'] },
    ],
  },
  'cloudchecks cluster alerts': {
    graphs: [
      {
        name: 'Cluster alerts firing',
        items: ['cloudchecks.alerts.critical', 'cloudchecks.alerts.warning', 'cloudchecks.alerts.info', 'cloudchecks.alerts.suppressed'],
      },
    ],
  },
  'cloudchecks Cloud Director VM': {
    graphs: [
      { name: 'VM: CPU usage', percent: true, items: ['cloudchecks.vm.cpu.usage'] },
      { name: 'VM: CPU usage (MHz)', items: ['cloudchecks.vm.cpu.mhz'] },
      { name: 'VM: memory usage', percent: true, items: ['cloudchecks.vm.mem.usage'] },
      { name: 'VM: disk used', percent: true, items: ['cloudchecks.vm.disk.used_pct'] },
      { name: 'VM: disk space', items: ['cloudchecks.vm.disk.used', 'cloudchecks.vm.disk.provisioned'] },
    ],
  },
  'cloudchecks Cloud Director VMs': {
    prototypes: {
      'check_vm_cpu["--extra-opts","{$CLOUDCHECKS.SECTION}@{$CLOUDCHECKS.INI}","--discovery"]': VM_PROTOTYPES('cloudchecks.vm'),
    },
  },
  'cloudchecks Cloud Director VDCs': {
    prototypes: {
      'check_vdc["--extra-opts","{$CLOUDCHECKS.VDC.SECTION}@{$CLOUDCHECKS.INI}","--discovery"]': CAPACITY('vdc', 'VDC', '{#VDC.NAME}', '{#VDC.ID}', 'limit'),
    },
  },
  'cloudchecks Cloud Director VM fleet': FLEET,
  'cloudchecks Cloud Director VM fleet trapper': FLEET,
  'cloudchecks Cloud Director service': {
    graphs: [{ name: 'Cloud Director: response times', items: ['cloudchecks.vcd.versions_time', 'cloudchecks.vcd.login_time', 'cloudchecks.vcd.query_time'] }],
  },
  'cloudchecks Cloud Director tasks': {
    graphs: [{ name: 'Cloud Director: tasks failed of those in the window', items: ['cloudchecks.vcd_tasks.failed', 'cloudchecks.vcd_tasks.total'] }],
  },
  'cloudchecks Cloud Director edge gateways': {
    prototypes: {
      'check_edge_gateways["--extra-opts","{$CLOUDCHECKS.EDGE.SECTION}@{$CLOUDCHECKS.INI}","--discovery"]': [
        { name: 'Edge gateway {#EDGE.NAME} ({#EDGE.ORG}): state', items: ['cloudchecks.edge.code[{#EDGE.ID}]'] },
      ],
    },
  },
  'cloudchecks Cloud Director backends': {
    prototypes: {
      'check_vcd_backends["--extra-opts","{$CLOUDCHECKS.VCD.BACKENDS.SECTION}@{$CLOUDCHECKS.INI}","--discovery","datastores"]': [
        { name: 'Datastore {#DATASTORE.NAME}: used of capacity', percent: true, items: ['cloudchecks.datastore.used[{#DATASTORE.ID}]'] },
        { name: 'Datastore {#DATASTORE.NAME}: provisioned of capacity', items: ['cloudchecks.datastore.provisioned[{#DATASTORE.ID}]'] },
      ],
    },
  },
  'cloudchecks Cloud Director provider VDCs': {
    prototypes: {
      'check_pvdc["--extra-opts","{$CLOUDCHECKS.PVDC.SECTION}@{$CLOUDCHECKS.INI}","--discovery"]': CAPACITY(
        'pvdc',
        'Provider VDC',
        '{#PVDC.NAME}',
        '{#PVDC.ID}',
        'capacity',
      ),
    },
  },
};

/** A uuid v4 (as Zabbix requires in exports) made from `seed`: the same seed, the same uuid. */
export function stableUuid(seed) {
  const b = createHash('sha256').update(`cloudchecks:${seed}`).digest().subarray(0, 16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  return b.toString('hex');
}

const quote = (s) => `'${s.replace(/'/g, "''")}'`;
const pad = (n) => ' '.repeat(n);

/** A graph or graph prototype at indent `ind` (its `- uuid` line). */
function graphLines(template, graph, ind, kind) {
  const i = pad(ind);
  const out = [`${i}- uuid: ${stableUuid(`${template}:${kind}:${graph.name}`)}`, `${i}  name: ${quote(graph.name)}`];
  // Percentages on a fixed 0-100 axis; counts and times from 0.
  out.push(`${i}  ymin_type_1: FIXED`);
  if (graph.percent) out.push(`${i}  ymax_type_1: FIXED`);
  out.push(`${i}  graph_items:`);
  let series = 0;
  graph.items.forEach((key, n) => {
    const level = /_(warning|critical)\[/.exec(key)?.[1];
    const lines = [];
    if (n > 0) lines.push(`sortorder: '${n}'`);
    lines.push(`color: ${level ? THRESHOLD[level] : PALETTE[series++ % PALETTE.length]}`);
    lines.push('item:', `  host: ${quote(template)}`, `  key: ${key}`);
    out.push(...lines.map((l, k) => `${i}    ${k === 0 ? '- ' : '  '}${l}`));
  });
  return out;
}

/** A template's graphs (for the top-level section, indent 4). */
export function graphSectionLines(template) {
  return (PICTURES[template]?.graphs ?? []).flatMap((g) => graphLines(template, g, 4, 'graph'));
}

/** A discovery rule's `graph_prototypes:` block (the rule's `- uuid` at indent 8), or none. */
export function prototypeLines(template, ruleKey) {
  const list = PICTURES[template]?.prototypes?.[ruleKey];
  return list ? ['          graph_prototypes:', ...list.flatMap((g) => graphLines(template, g, 12, 'graph_prototype'))] : [];
}

/** A widget's `reference` in 7.0: five capitals, the same each run, unique in its dashboard. */
function reference(template, n) {
  const h = createHash('sha256').update(`cloudchecks:${template}:widget:${n}`).digest();
  return [...h.subarray(0, 5)].map((x) => String.fromCharCode(65 + (x % 26))).join('');
}

/** The template's `dashboards:` block (indent 6) in export format `version` ('6.0' or '7.0'), or none. */
export function dashboardLines(template, version) {
  const p = PICTURES[template];
  if (!p) return [];
  const seven = version === '7.0';
  const scale = seven ? 3 : 1;
  const widgets = [
    ...(p.graphs ?? []).map((g) => ({ prototype: false, name: g.name })),
    ...Object.values(p.prototypes ?? {}).flatMap((list) => list.map((g) => ({ prototype: true, name: g.name }))),
  ];
  const out = [
    '      dashboards:',
    `        - uuid: ${stableUuid(`${template}:dashboard`)}`,
    `          name: ${quote(template)}`,
    '          pages:',
    '            - widgets:',
  ];
  // Graphs two to a row (12 of 24 columns, 5 rows high); each graph prototype a full row that
  // shows its graphs for two discovered things side by side.
  let x = 0;
  let y = 0;
  const refs = new Set();
  widgets.forEach((w, n) => {
    const width = w.prototype ? 24 : 12;
    const height = w.prototype ? 8 : 5;
    if (x + width > 24) {
      x = 0;
      y += 5;
    }
    const i = pad(18);
    const type = seven ? (w.prototype ? 'graphprototype' : 'graph') : w.prototype ? 'GRAPH_PROTOTYPE' : 'GRAPH_CLASSIC';
    out.push(`                - type: ${type}`, `${i}name: ${quote(w.name)}`);
    if (x > 0) out.push(`${i}x: '${x * scale}'`);
    if (y > 0) out.push(`${i}'y': '${y}'`);
    out.push(`${i}width: '${width * scale}'`, `${i}height: '${height}'`, `${i}fields:`);
    if (w.prototype) out.push(`${i}  - type: INTEGER`, `${i}    name: columns`, `${i}    value: '2'`);
    out.push(
      `${i}  - type: ${w.prototype ? 'GRAPH_PROTOTYPE' : 'GRAPH'}`,
      `${i}    name: ${seven ? 'graphid.0' : 'graphid'}`,
      `${i}    value:`,
      `${i}      host: ${quote(template)}`,
      `${i}      name: ${quote(w.name)}`,
    );
    if (seven) {
      let ref = reference(template, n);
      for (let k = 0; refs.has(ref); k++) ref = reference(template, `${n}.${k}`);
      refs.add(ref);
      out.push(`${i}  - type: STRING`, `${i}    name: reference`, `${i}    value: ${ref}`);
    }
    x += width;
    if (x >= 24) {
      x = 0;
      y += height;
    }
    if (w.prototype) x = 0;
  });
  return out;
}

const indent = (line) => line.length - line.trimStart().length;

/**
 * The source text with the pictures of PICTURES in place of those it has: each template's
 * dashboard before its valuemaps (where Zabbix exports it), each rule's graph prototypes at the
 * end of the rule, the graphs at the end of the file. Throws when a picture names a rule or a
 * template the file does not have.
 */
export function withPictures(source) {
  const lines = source.replace(/\n$/, '').split('\n');
  // Out with the pictures the file has (all made by this script).
  const kept = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l === '      dashboards:' || l === '          graph_prototypes:' || l === '  graphs:') {
      while (i + 1 < lines.length && indent(lines[i + 1]) > indent(l)) i++;
      continue;
    }
    kept.push(l);
  }
  // In with those of PICTURES.
  const out = [];
  const seen = { templates: new Set(), rules: new Set() };
  let template = '';
  let ruleKey = '';
  const endRule = () => {
    if (ruleKey) {
      out.push(...prototypeLines(template, ruleKey));
      seen.rules.add(`${template}\n${ruleKey}`);
    }
    ruleKey = '';
  };
  let dashboardDone = false;
  const endTemplate = () => {
    endRule();
    if (template && !dashboardDone) out.push(...dashboardLines(template, '6.0'));
    dashboardDone = false;
  };
  for (let i = 0; i < kept.length; i++) {
    const l = kept[i];
    if (ruleKey && indent(l) <= 8 && l.trim() !== '') endRule();
    if (/^ {4}- uuid: /.test(l) || /^ {2}\S/.test(l)) endTemplate();
    const t = /^ {6}template: (.+)$/.exec(l);
    if (t) {
      template = t[1];
      seen.templates.add(template);
    }
    const rule = /^ {10}key: (.+)$/.exec(l);
    if (rule && inRules(kept, i)) ruleKey = rule[1];
    if (l === '      valuemaps:' && template) {
      endRule();
      out.push(...dashboardLines(template, '6.0'));
      dashboardDone = true;
    }
    out.push(l);
  }
  endTemplate();
  for (const [name, p] of Object.entries(PICTURES)) {
    if (!seen.templates.has(name)) throw new Error(`zabbix-graphs: no template ${name} in the file`);
    for (const key of Object.keys(p.prototypes ?? {}))
      if (!seen.rules.has(`${name}\n${key}`)) throw new Error(`zabbix-graphs: no discovery rule ${key} in ${name}`);
  }
  const templates = [...seen.templates].filter((t) => PICTURES[t]?.graphs?.length);
  if (templates.length > 0) out.push('  graphs:', ...templates.flatMap(graphSectionLines));
  return out.join('\n') + '\n';
}

/** Whether line `i` (a `key:` at indent 10) belongs to a discovery rule: the nearest list head above at indent 6 says. */
function inRules(lines, i) {
  for (let k = i - 1; k >= 0; k--) {
    if (/^ {6}\S/.test(lines[k])) return lines[k] === '      discovery_rules:';
    if (indent(lines[k]) < 8 && lines[k].trim() !== '') return false;
  }
  return false;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const current = readFileSync(SOURCE, 'utf8');
  const made = withPictures(current);
  if (process.argv[2] === '--check') {
    if (current !== made) {
      console.error('contrib/zabbix/cloudchecks_templates.yaml: its graphs and dashboards are not those of scripts/zabbix-graphs.mjs: run it');
      process.exit(1);
    }
    console.log('contrib/zabbix/cloudchecks_templates.yaml has the graphs and dashboards of scripts/zabbix-graphs.mjs');
  } else {
    writeFileSync(SOURCE, made);
    console.log('wrote the graphs and dashboards of contrib/zabbix/cloudchecks_templates.yaml');
  }
}
