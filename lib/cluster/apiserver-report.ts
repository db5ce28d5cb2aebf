// The judgement of check_apiserver: a failing readyz or livez check is CRITICAL naming it;
// each endpoint's time is measured against the -w/-c seconds. Each endpoint is a subcheck
// whose failing checks are its own subchecks.
import type { Measurement, ScalarContext } from '../plugin/scalar-context';
import type { Item, Result } from '../plugin/result';
import { unjudgedMetric } from '../plugin/scalar-context';
import { State } from '../plugin/state';
import { itemOf, part, resultOf, type Part } from '../plugin/part';
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

/** One endpoint judged: its failing checks (CRITICAL each) and its time, whose states count as its own. */
interface EndpointVerdict extends Part {
  name: string;
  text: string;
  health: EndpointHealth;
  time: Measurement;
  checks: Item[];
}

/** `readyz failed: etcd (reason withheld), informer-sync`, or `readyz ok (48 checks, 0.021 s)`. */
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

function judgeEndpoint(h: EndpointHealth, time: ScalarContext): EndpointVerdict {
  const measured = time.measure(`${h.endpoint}_time`, h.seconds, { uom: 's', min: 0, decimals: 4 });
  const checks: Item[] = h.failed.map((c) => ({
    name: `${h.endpoint}/${c.name}`,
    state: State.CRITICAL,
    text: `${h.endpoint}: [-]${c.name} failed${c.reason === undefined ? '' : `: ${c.reason}`}`,
  }));
  // A 500 or 503 without a failing check named is still the server saying it is not ready.
  const refused = h.failed.length === 0 && h.status !== 200 ? State.CRITICAL : State.OK;
  const failing = h.failed.length > 0 || h.status !== 200;
  const text = `${describeEndpoint(h)}${failing ? `, in ${seconds(h.seconds)}` : ''}`;
  return { name: h.endpoint, state: refused, subchecks: [measured, ...checks], text, health: h, time: measured, checks };
}

/** The result of one probe: CRITICAL when a check fails, else the worse of the two times' states. */
export function evaluateApiServer(probe: ApiServerProbe, time: ScalarContext): Result {
  const endpoints = [judgeEndpoint(probe.readyz, time), judgeEndpoint(probe.livez, time)];
  const version = probe.version ? `API server ${probe.version.text}: ` : '';
  const slow = endpoints.filter((e) => e.checks.length === 0 && e.health.status === 200 && e.time.state !== State.OK);
  // Each endpoint: its lines (the failing checks, then its own), its time graphed; said in the sentence below.
  const judged: Part[] = endpoints.map((e) => ({ state: State.OK, subchecks: [e], items: [...e.checks, itemOf(e.name, e)], metrics: [e.time.metric] }));
  const said = [...endpoints.map((e) => describeEndpoint(e.health)), ...slow.map((e) => `${e.name} took ${seconds(e.health.seconds)}`)];
  const counts = [
    unjudgedMetric('readyz_failed', probe.readyz.failed.length, { min: 0 }),
    unjudgedMetric('livez_failed', probe.livez.failed.length, { min: 0 }),
  ];
  const parts = [...judged, ...said.map((text, i) => part(i === 0 ? `${version}${text}` : text)), { state: State.OK, metrics: counts }];
  return resultOf(parts, {}, ', ', { words: 'as given', items: 'problems first' });
}
