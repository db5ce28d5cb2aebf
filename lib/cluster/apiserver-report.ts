// The judgement of check_apiserver: a failing readyz or livez check is CRITICAL naming it;
// each endpoint's time goes through the -w/-c seconds.
import type { Item, Result } from '../plugin/result';
import type { ScalarContext } from '../plugin/scalar-context';
import { State, worstState } from '../plugin/state';
import type { ApiServerProbe, EndpointHealth } from './apiserver-probe';
import type { HealthCheck } from './health-checks';

/** Failing checks named on the status line; the long output names them all. */
const NAMED = 5;

function describeCheck(c: HealthCheck): string {
  return c.reason === undefined ? c.name : `${c.name} (${c.reason})`;
}

function seconds(s: number): string {
  return `${s.toFixed(3)} s`;
}

/** `readyz: etcd (reason withheld), informer-sync failed`, or `readyz ok (48 checks, 0.021 s)`. */
function describeEndpoint(h: EndpointHealth): string {
  if (h.failed.length > 0) {
    const named = h.failed.slice(0, NAMED).map(describeCheck);
    const rest = h.failed.length > NAMED ? ` and ${h.failed.length - NAMED} more` : '';
    return `${h.endpoint} failed: ${named.join(', ')}${rest}`;
  }
  if (h.status !== 200) return `${h.endpoint} failed: HTTP ${h.status}${h.verdict ? ` (${h.verdict})` : ''}`;
  const total = h.checks.length + h.more;
  return `${h.endpoint} ok (${total > 0 ? `${total} checks, ` : ''}${seconds(h.seconds)})`;
}

function endpointItems(h: EndpointHealth, time: ScalarContext): Item[] {
  const items: Item[] = h.failed.map((c) => ({
    name: `${h.endpoint}/${c.name}`,
    state: State.CRITICAL,
    text: `${h.endpoint}: [-]${c.name} failed${c.reason === undefined ? '' : `: ${c.reason}`}`,
  }));
  const failing = h.failed.length > 0 || h.status !== 200;
  const timeState = time.evaluate(h.seconds);
  items.push({
    name: h.endpoint,
    state: failing ? worstState([State.CRITICAL, timeState]) : timeState,
    text: `${describeEndpoint(h)}${failing ? `, in ${seconds(h.seconds)}` : ''}`,
  });
  return items;
}

/** The result of one probe: CRITICAL when a check fails, else the worse of the two times' states. */
export function evaluateApiServer(probe: ApiServerProbe, time: ScalarContext): Result {
  const items = [...endpointItems(probe.readyz, time), ...endpointItems(probe.livez, time)];
  const state = worstState(items.map((i) => i.state));
  const version = probe.version ? `API server ${probe.version.text}: ` : '';
  const slow = [probe.readyz, probe.livez].filter((h) => h.failed.length === 0 && h.status === 200 && time.evaluate(h.seconds) !== State.OK);
  const slowText = slow.map((h) => `${h.endpoint} took ${seconds(h.seconds)}`);
  const summary = `${version}${[describeEndpoint(probe.readyz), describeEndpoint(probe.livez), ...slowText].join(', ')}`;
  return {
    state,
    summary,
    items,
    metrics: [
      time.perfdata('readyz_time', round(probe.readyz.seconds), { uom: 's', min: 0 }),
      time.perfdata('livez_time', round(probe.livez.seconds), { uom: 's', min: 0 }),
      { label: 'readyz_failed', value: probe.readyz.failed.length, min: 0 },
      { label: 'livez_failed', value: probe.livez.failed.length, min: 0 },
    ],
  };
}

function round(s: number): number {
  return Math.round(s * 10000) / 10000;
}
