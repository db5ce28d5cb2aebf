// check_vcd_backends' judgement: a vCenter that vCD is not connected to (isConnected false, a
// listenerState other than CONNECTED) is CRITICAL, clusterHealthStatus YELLOW WARNING and RED
// CRITICAL; a datastore's used and provisioned storage in percent of its capacity against their
// ranges; a disabled vCenter or datastore is named, in --disabled-state. What is kept is bounded
// whatever their number: the long output's lines, MAX_PERFDATA_VALUES values, the problems named.
import { BoundedItems, Named, Verdict } from '../../plugin/part';
import type { Metric } from '../../plugin/perfdata';
import { PerfdataLabels } from '../../plugin/perfdata-labels';
import { formatDecimal } from '../../plugin/number-format';
import { MAX_ITEMS, type Result } from '../../plugin/result';
import { PERCENT, unjudgedMetric, type ScalarContext } from '../../plugin/scalar-context';
import { State } from '../../plugin/state';
import type { Datastore, VCenter } from './backend-read';

/** The ranges and states check_vcd_backends judges with. */
export interface BackendThresholds {
  storage: ScalarContext;
  overcommit: ScalarContext;
  disabledState: State;
}

/** Perfdata values at most: whole objects in the order judged, the cut said in the long output. */
export const MAX_PERFDATA_VALUES = 1000;
const PROBLEMS_IN_SUMMARY = 10;

const percent = (part: number | undefined, whole: number | undefined): number | undefined =>
  part === undefined || whole === undefined || whole <= 0 ? undefined : (part / whole) * 100;
const pct = (v: number) => `${formatDecimal(Math.round(v * 10) / 10)}%`;
const gib = (mb: number) => `${formatDecimal(Math.round((mb / 1024) * 10) / 10)} GiB`;
const SHAPE = { ...PERCENT, decimals: 1 };

/** Whether vCD is connected to a vCenter: undefined when the answer says neither isConnected nor listenerState. */
export function isConnected(v: VCenter): boolean | undefined {
  if (v.connected === undefined && v.listener === undefined) return undefined;
  return v.connected !== false && (v.listener === undefined || v.listener === 'CONNECTED');
}

/** One vCenter judged: not connected CRITICAL, cluster health YELLOW WARNING and RED CRITICAL; disabled in --disabled-state alone. */
export function judgeVCenter(v: VCenter, disabledState: State): Verdict {
  const said = new Verdict(`vCenter ${v.name}`);
  const disabled = v.enabled === false;
  const on = (state: State) => (disabled ? State.OK : state);
  if (disabled) said.add('disabled', disabledState);
  const connected = isConnected(v);
  if (connected === undefined) said.add('connection not reported by this vCD', on(State.UNKNOWN));
  else if (!connected) said.add(`not connected${v.listener !== undefined ? ` (listener ${v.listener})` : ''}`, on(State.CRITICAL));
  else said.add('connected');
  if (v.health !== undefined)
    said.add(`cluster health ${v.health}`, on(v.health === 'RED' ? State.CRITICAL : v.health === 'YELLOW' ? State.WARNING : State.OK));
  said.add(v.version === undefined ? 'version not reported' : `version ${v.version}`);
  return said;
}

/** One datastore judged, with its perfdata. */
export function judgeDatastore(d: Datastore, t: BackendThresholds, labels: PerfdataLabels | undefined): { verdict: Verdict; short: string; metrics: Metric[] } {
  const used = percent(d.usedMB, d.capacityMB);
  const provisioned = percent(d.provisionedMB, d.capacityMB);
  // Past the perfdata's cut no label is made: a label of a hostile name costs a SHA-256.
  const label = (measure: string) => (labels === undefined ? measure : labels.label([d.vc, d.name], measure));
  const u = t.storage.measure(label('used_pct'), used, SHAPE);
  const p = t.overcommit.measure(label('provisioned_pct'), provisioned, { uom: '%', min: 0, decimals: 1 });
  const where = [d.vc === '' ? '' : `vCenter ${d.vc}`, d.type].filter(Boolean).join(', ');
  const said = new Verdict(`datastore ${d.name}${where === '' ? '' : ` (${where})`}`);
  if (d.enabled === false) said.add('disabled', t.disabledState);
  const cap = d.capacityMB === undefined ? ' (capacity not reported)' : ` of ${gib(d.capacityMB)}`;
  said.add(used === undefined ? `used unknown${cap}` : `${pct(used)} used${cap}`, u.state === State.UNKNOWN ? State.OK : u.state);
  if (provisioned !== undefined) said.add(`${pct(provisioned)} provisioned`, p.state);
  if (d.odd.length > 0) said.add(`not numbers: ${d.odd.join(', ')}`);
  return { verdict: said, short: `datastore ${d.name}`, metrics: [u.metric, p.metric] };
}

/** The result of check_vcd_backends over the vCenters and datastores read. */
export function judgeBackends(vcenters: readonly VCenter[], datastores: readonly Datastore[], t: BackendThresholds): Result {
  const items = new BoundedItems(MAX_ITEMS - 2);
  const metrics: Metric[] = [];
  const problems = new Named(PROBLEMS_IN_SUMMARY);
  const labels = new PerfdataLabels();
  let graphed = 0;
  let cut = false;
  const add = (v: Verdict, objectName: string, values: Metric[], short?: string) => {
    items.add(v.item(objectName));
    problems.add(v.problem(short));
    if (cut) return;
    cut = metrics.length + values.length > MAX_PERFDATA_VALUES;
    if (cut) return;
    for (const m of values) metrics.push(m);
    graphed++;
  };
  for (const v of [...vcenters].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const f = judgeVCenter(v, t.disabledState);
    const connected = isConnected(v);
    add(f, v.name, [unjudgedMetric(labels.label([v.name], 'connected'), connected === undefined ? null : connected ? 1 : 0, { min: 0, max: 1 })]);
  }
  const byVCenter = (a: Datastore, b: Datastore) => (a.vc < b.vc ? -1 : a.vc > b.vc ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  for (const d of [...datastores].sort(byVCenter)) {
    const { verdict, short, metrics: values } = judgeDatastore(d, t, cut ? undefined : labels);
    add(verdict, d.name, values, short);
  }
  const total = vcenters.length + datastores.length;
  const kept = items.items();
  if (cut)
    kept.unshift({
      name: 'perfdata',
      state: State.OK,
      text: `perfdata for the first ${graphed} of ${total} vCenters and datastores (${metrics.length} values, at most ${MAX_PERFDATA_VALUES}): the others with --vcenter or --datastore, one service each (--discovery)`,
    });
  const result = { state: items.state, items: kept, metrics, ...(items.leftOut > 0 ? { itemsLeftOut: items.leftOut } : {}) };
  if (total === 1) return { ...result, summary: kept[kept.length - 1].text };
  const n = [
    vcenters.length > 0 ? `${vcenters.length} vCenter${vcenters.length === 1 ? '' : 's'}` : '',
    datastores.length > 0 || vcenters.length === 0 ? `${datastores.length} datastore${datastores.length === 1 ? '' : 's'}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return {
    ...result,
    summary: problems.count === 0 ? `${n}: all connected and within their thresholds` : `${n}: ${problems.said(', ')}`,
  };
}
