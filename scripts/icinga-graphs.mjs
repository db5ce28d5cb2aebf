#!/usr/bin/env node
// The pictures of the Icinga 2 check commands (contrib/icinga2/commands.conf), made from one
// description below so that the two never disagree:
// - contrib/icinga2/graphite/cloudchecks.ini: templates for Icinga Web 2's graphite module (the
//   perfdata Icinga's GraphiteWriter sends: <prefix>.perfdata.<label>.value), one or more per
//   check command;
// - contrib/grafana/cloudchecks-icinga2-influxdb2.json: a Grafana dashboard over what Icinga's
//   Influxdb2Writer writes (measurement: the check command; tags hostname, service, metric: the
//   perfdata label; field value), with Flux queries.
// Labels are the plugins' own (snake_case; a VDC's or provider VDC's are prefixed with its name:
// <vdc>__cpu_pct, <vdc>__<policy>__storage_pct), so a graph of those matches them by suffix.
// Edit GRAPHS, then run `node scripts/icinga-graphs.mjs` (test/unit/icinga-graphs.test.ts fails
// while the files differ; `--check` says so too). test/e2e/icinga-graphs.test.ts checks each
// path against the plugins' perfdata; test/integration/icinga2.test.ts against Icinga's writers.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
export const GRAPHITE = join(REPO, 'contrib/icinga2/graphite/cloudchecks.ini');
export const GRAFANA = join(REPO, 'contrib/grafana/cloudchecks-icinga2-influxdb2.json');

const COLOURS = ['#1a7dd7', '#44bb77', '#ff5566', '#ffaa44', '#9966cc', '#666666'];

// A graph: its template name, its check command, its title, the unit (Grafana's unit id; the
// graphite module's yUnitSystem follows), and its series: [label, legend] where the label is the
// exact perfdata label, or `*suffix` for every label that ends in suffix (one graph each).
/** What each check command draws. */
export const GRAPHS = [
  {
    name: 'nodes',
    command: 'cloudchecks-nodes',
    title: 'Nodes',
    unit: 'none',
    series: [
      ['nodes', 'Nodes'],
      ['healthy', 'Healthy'],
      ['failing', 'Failing'],
      ['cordoned', 'Cordoned'],
    ],
  },
  {
    name: 'nodes-pods',
    command: 'cloudchecks-nodes',
    title: 'Pods of the busiest node (of its limit)',
    unit: 'percent',
    series: [['pods_max_pct', 'Busiest node']],
  },
  {
    name: 'cluster-monitoring',
    command: 'cloudchecks-cluster-monitoring',
    title: 'Monitoring stack pods',
    unit: 'none',
    series: [
      ['pods', 'Pods'],
      ['pods_ready', 'Ready'],
      ['pods_not_ready', 'Not ready'],
    ],
  },
  {
    name: 'cluster-operators',
    command: 'cloudchecks-cluster-operators',
    title: 'Cluster operators',
    unit: 'none',
    series: [
      ['operators', 'Operators'],
      ['available', 'Available'],
      ['degraded', 'Degraded'],
      ['progressing', 'Progressing'],
      ['unavailable', 'Unavailable'],
    ],
  },
  {
    name: 'apiserver-time',
    command: 'cloudchecks-apiserver',
    title: 'API server response time',
    unit: 's',
    series: [
      ['readyz_time', '/readyz'],
      ['livez_time', '/livez'],
    ],
  },
  {
    name: 'apiserver-failed',
    command: 'cloudchecks-apiserver',
    title: 'API server checks failing',
    unit: 'none',
    series: [
      ['readyz_failed', '/readyz'],
      ['livez_failed', '/livez'],
    ],
  },
  { name: 'cluster-certs', command: 'cloudchecks-cluster-certs', title: 'Certificate days left', unit: 'd', series: [['cert_days_left', 'Nearest expiry']] },
  { name: 'cluster-csrs', command: 'cloudchecks-cluster-certs', title: 'Kubelet CSRs pending', unit: 'none', series: [['csr_pending', 'Pending']] },
  {
    name: 'cluster-alerts',
    command: 'cloudchecks-cluster-alerts',
    title: 'Cluster alerts firing',
    unit: 'none',
    series: [
      ['alerts_critical', 'Critical'],
      ['alerts_warning', 'Warning'],
      ['alerts_info', 'Other'],
      ['alerts_suppressed', 'Silenced or inhibited'],
    ],
  },
  {
    name: 'vm-cpu',
    command: 'cloudchecks-vm-cpu',
    title: 'VM CPU usage',
    unit: 'percent',
    series: [
      ['cpu_usage', 'Average'],
      ['cpu_usage_max', 'Maximum'],
    ],
  },
  { name: 'vm-cpu-mhz', command: 'cloudchecks-vm-cpu', title: 'VM CPU (MHz)', unit: 'none', series: [['cpu_mhz', 'MHz']] },
  { name: 'vm-mem', command: 'cloudchecks-vm-mem', title: 'VM memory usage', unit: 'percent', series: [['mem_usage', 'Used']] },
  { name: 'vm-disk', command: 'cloudchecks-vm-disk', title: 'VM disk used', unit: 'percent', series: [['disk_used_pct', 'Used of provisioned']] },
  {
    name: 'vm-disk-space',
    command: 'cloudchecks-vm-disk',
    title: 'VM disk space',
    unit: 'bytes',
    series: [
      ['disk_used', 'Used'],
      ['disk_provisioned', 'Provisioned'],
    ],
  },
  {
    name: 'vm-disk-io',
    command: 'cloudchecks-vm-disk',
    title: 'VM disk I/O (KB/s)',
    unit: 'none',
    series: [
      ['disk_read_kBps', 'Read'],
      ['disk_write_kBps', 'Write'],
    ],
  },
  { name: 'vm-snapshot', command: 'cloudchecks-vm-snapshot', title: 'VM oldest snapshot age', unit: 's', series: [['snapshot_age', 'Oldest']] },
  {
    name: 'vm-lease',
    command: 'cloudchecks-vm-lease',
    title: 'VM lease time left',
    unit: 's',
    series: [
      ['lease_runtime', 'Runtime lease'],
      ['lease_storage', 'Storage lease'],
    ],
  },
  {
    name: 'vm-fleet',
    command: 'cloudchecks-vm-fleet',
    title: 'VM fleet: VMs read',
    unit: 'none',
    series: [
      ['vms', 'VMs'],
      ['ok', 'OK'],
      ['warning', 'Warning'],
      ['critical', 'Critical'],
      ['unknown', 'Unknown'],
    ],
  },
  { name: 'vm-fleet-time', command: 'cloudchecks-vm-fleet', title: 'VM fleet: run time', unit: 's', series: [['seconds', 'Run time']] },
  { name: 'vdc-cpu', command: 'cloudchecks-vdc', title: 'VDC CPU of limit', unit: 'percent', series: [['*__cpu_pct', 'CPU']] },
  { name: 'vdc-memory', command: 'cloudchecks-vdc', title: 'VDC memory of limit', unit: 'percent', series: [['*__memory_pct', 'Memory']] },
  { name: 'vdc-storage', command: 'cloudchecks-vdc', title: 'VDC storage of limit, per policy', unit: 'percent', series: [['*__storage_pct', 'Storage']] },
  { name: 'pvdc-cpu', command: 'cloudchecks-pvdc', title: 'Provider VDC CPU of capacity', unit: 'percent', series: [['*__cpu_pct', 'CPU']] },
  { name: 'pvdc-memory', command: 'cloudchecks-pvdc', title: 'Provider VDC memory of capacity', unit: 'percent', series: [['*__memory_pct', 'Memory']] },
  {
    name: 'pvdc-storage',
    command: 'cloudchecks-pvdc',
    title: 'Provider VDC storage of capacity, per policy',
    unit: 'percent',
    series: [['*__storage_pct', 'Storage']],
  },
  {
    name: 'vcd-service',
    command: 'cloudchecks-vcd-service',
    title: 'Cloud Director response times',
    unit: 's',
    series: [
      ['versions_time', '/api/versions'],
      ['login_time', 'Login'],
      ['query_time', 'Query'],
    ],
  },
  {
    name: 'vcd-tasks',
    command: 'cloudchecks-vcd-tasks',
    title: 'Cloud Director tasks: failed of those in the window',
    unit: 'none',
    series: [
      ['tasks_failed', 'Failed'],
      ['tasks_total', 'All'],
    ],
  },
  {
    name: 'edge-gateways',
    command: 'cloudchecks-edge-gateways',
    title: 'Edge gateways',
    unit: 'none',
    series: [
      ['edges', 'Edge gateways'],
      ['edges_realized', 'Realised'],
      ['edges_busy', 'Busy'],
      ['edges_problem', 'With a problem'],
    ],
  },
  {
    name: 'vcd-backends-vcenters',
    command: 'cloudchecks-vcd-backends',
    title: 'vCenter connected (1) or not (0)',
    unit: 'none',
    series: [['*__connected', 'Connected']],
  },
  { name: 'vcd-backends-used', command: 'cloudchecks-vcd-backends', title: 'Datastore used of capacity', unit: 'percent', series: [['*__used_pct', 'Used']] },
  {
    name: 'vcd-backends-provisioned',
    command: 'cloudchecks-vcd-backends',
    title: 'Datastore provisioned of capacity',
    unit: 'percent',
    series: [['*__provisioned_pct', 'Provisioned']],
  },
];

/** The graphite module's curve path for a series: a suffix pattern becomes a macro with its wildcard (one graph per label). */
export function graphitePath(label) {
  return label.startsWith('*') ? `$service_name_template$.perfdata.$label:${label}$.value` : `$service_name_template$.perfdata.${label}.value`;
}

/** The text of contrib/icinga2/graphite/cloudchecks.ini. */
export function graphiteIni() {
  const out = [
    '; cloudchecks | MIT licence',
    "; Graph templates for Icinga Web 2's graphite module: the perfdata of the cloudchecks check",
    "; commands as Icinga 2's GraphiteWriter stores it. Made by scripts/icinga-graphs.mjs; install:",
    '; docs/icinga2.md ("Graphs").',
  ];
  for (const g of GRAPHS) {
    const section = `cloudchecks-${g.name.replace(/^cloudchecks-/, '')}`;
    out.push('', `[${section}.graph]`, `check_command = "${g.command}"`, '', `[${section}.metrics_filters]`);
    for (const [label] of g.series) out.push(`${curve(label)} = "${graphitePath(label)}"`);
    out.push('', `[${section}.urlparams]`, 'areaAlpha = "0.3"', 'areaMode = "none"', 'lineWidth = "2"', 'min = "0"');
    if (g.unit === 'percent') out.push('max = "100"');
    out.push(`yUnitSystem = "${g.unit === 'bytes' ? 'binary' : 'none'}"`);
    if (g.series.some(([l]) => l.startsWith('*'))) out.push(`title = "${g.title}: $label$"`);
    out.push('', `[${section}.functions]`);
    g.series.forEach(([label, legend], n) =>
      out.push(`${curve(label)} = "alias(color($metric$, '${COLOURS[n % COLOURS.length]}'), '${legend}${unitSuffix(g.unit)}')"`),
    );
  }
  return out.join('\n') + '\n';
}

const curve = (label) => `${label.replace(/^\*_*/, '')}.value`;
const unitSuffix = (unit) => ({ percent: ' (%)', s: ' (s)', d: ' (days)', bytes: ' (bytes)' })[unit] ?? '';

/** The Flux query of one series: the check command's measurement, the label (or suffix), the value field, the chosen hosts. */
export function fluxQuery(command, label) {
  const metric = label.startsWith('*') ? `r.metric =~ /${label.slice(1).replace(/[.]/g, '\\.')}$/` : `r.metric == "${label}"`;
  return [
    'from(bucket: "${bucket}")',
    '  |> range(start: v.timeRangeStart, stop: v.timeRangeStop)',
    `  |> filter(fn: (r) => r._measurement == "${command}" and r._field == "value" and ${metric})`,
    '  |> filter(fn: (r) => r.hostname =~ /^${hostname:regex}$/)',
    '  |> keep(columns: ["_time", "_value", "hostname", "service", "metric"])',
    '  |> aggregateWindow(every: v.windowPeriod, fn: mean, createEmpty: false)',
  ].join('\n');
}

/** The Grafana dashboard (JSON model) over Icinga's Influxdb2Writer: one row per check command, one time series panel per graph. */
export function grafanaDashboard() {
  const panels = [];
  let id = 1;
  let y = 0;
  let x = 0;
  let command = '';
  for (const g of GRAPHS) {
    if (g.command !== command) {
      if (x > 0) y += 8;
      x = 0;
      command = g.command;
      panels.push({ id: id++, type: 'row', title: command, collapsed: false, gridPos: { h: 1, w: 24, x: 0, y: y++ }, panels: [] });
    }
    panels.push({
      id: id++,
      type: 'timeseries',
      title: g.title,
      datasource: { type: 'influxdb', uid: '${datasource}' },
      gridPos: { h: 8, w: 12, x, y },
      fieldConfig: {
        defaults: { unit: g.unit === 'd' ? 'none' : g.unit, min: 0, ...(g.unit === 'percent' ? { max: 100 } : {}), custom: { lineWidth: 2, fillOpacity: 10 } },
        overrides: [],
      },
      options: { legend: { displayMode: 'list', placement: 'bottom', showLegend: true }, tooltip: { mode: 'multi', sort: 'none' } },
      targets: g.series.map(([label], n) => ({
        refId: String.fromCharCode(65 + n),
        datasource: { type: 'influxdb', uid: '${datasource}' },
        query: fluxQuery(g.command, label),
      })),
    });
    x += 12;
    if (x >= 24) {
      x = 0;
      y += 8;
    }
  }
  return {
    title: 'cloudchecks (Icinga 2, InfluxDB v2)',
    uid: 'cloudchecks-icinga2-influxdb2',
    description:
      "The perfdata of the cloudchecks check commands as Icinga 2's Influxdb2Writer stores it. Made by scripts/icinga-graphs.mjs; install: docs/icinga2.md.",
    tags: ['cloudchecks', 'icinga2'],
    timezone: 'browser',
    schemaVersion: 39,
    version: 1,
    editable: true,
    time: { from: 'now-24h', to: 'now' },
    templating: {
      list: [
        { name: 'datasource', label: 'InfluxDB (Flux)', type: 'datasource', query: 'influxdb', current: {}, hide: 0 },
        { name: 'bucket', label: 'Bucket', type: 'textbox', query: 'icinga2', current: { text: 'icinga2', value: 'icinga2' }, hide: 0 },
        {
          name: 'hostname',
          label: 'Host',
          type: 'query',
          datasource: { type: 'influxdb', uid: '${datasource}' },
          query: 'import "influxdata/influxdb/schema"\nschema.tagValues(bucket: "${bucket}", tag: "hostname")',
          multi: true,
          includeAll: true,
          current: {},
          refresh: 2,
          hide: 0,
        },
      ],
    },
    panels,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = [
    [GRAPHITE, graphiteIni()],
    [GRAFANA, JSON.stringify(grafanaDashboard(), null, 2) + '\n'],
  ];
  if (process.argv[2] === '--check') {
    const stale = files.filter(([file, text]) => {
      try {
        return readFileSync(file, 'utf8') !== text;
      } catch {
        return true;
      }
    });
    if (stale.length > 0) {
      console.error(`${stale.map(([f]) => f.slice(REPO.length + 1)).join(', ')}: not what scripts/icinga-graphs.mjs makes: run it`);
      process.exit(1);
    }
    console.log('contrib/icinga2/graphite and contrib/grafana are those of scripts/icinga-graphs.mjs');
  } else {
    for (const [file, text] of files) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
    console.log('wrote contrib/icinga2/graphite/cloudchecks.ini and contrib/grafana/cloudchecks-icinga2-influxdb2.json');
  }
}
