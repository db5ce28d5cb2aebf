// The judgement of check_apiserver: a failing readyz or livez check is CRITICAL naming it;
// each endpoint's time is measured against the -w/-c seconds. Each endpoint is a subcheck
// whose failing checks are its own subchecks.
import type { Measurement, ScalarContext } from '../plugin/scalar-context';
import type { Item, Result } from '../plugin/result';
import { unjudgedMetric } from '../plugin/scalar-context';
import { State } from '../plugin/state';
import { problemsFirst, stateOf, worstOf } from '../plugin/subcheck';
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

/** One endpoint judged: its failing checks (CRITICAL each) and its time. */
interface EndpointVerdict extends Item {
  health: EndpointHealth;
  time: Measurement;
  subchecks: Item[];
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
  const subchecks: Item[] = h.failed.map((c) => ({
    name: `${h.endpoint}/${c.name}`,
    state: State.CRITICAL,
    text: `${h.endpoint}: [-]${c.name} failed${c.reason === undefined ? '' : `: ${c.reason}`}`,
  }));
  // A 500 or 503 without a failing check named is still the server saying it is not ready.
  const refused = h.failed.length === 0 && h.status !== 200 ? State.CRITICAL : State.OK;
  const failing = h.failed.length > 0 || h.status !== 200;
  const text = `${describeEndpoint(h)}${failing ? `, in ${seconds(h.seconds)}` : ''}`;
  return { name: h.endpoint, state: worstOf([{ state: refused }, { state: measured.state }]), text, health: h, time: measured, subchecks };
}

/** The result of one probe: CRITICAL when a check fails, else the worse of the two times' states. */
export function evaluateApiServer(probe: ApiServerProbe, time: ScalarContext): Result {
  const endpoints = [judgeEndpoint(probe.readyz, time), judgeEndpoint(probe.livez, time)];
  const version = probe.version ? `API server ${probe.version.text}: ` : '';
  const slow = endpoints.filter((e) => e.subchecks.length === 0 && e.health.status === 200 && e.time.state !== State.OK);
  const summary = `${version}${[...endpoints.map((e) => describeEndpoint(e.health)), ...slow.map((e) => `${e.name} took ${seconds(e.health.seconds)}`)].join(', ')}`;
  const items = problemsFirst(endpoints.flatMap((e) => [...e.subchecks, { name: e.name, state: stateOf(e), text: e.text }]));
  return {
    state: worstOf(endpoints),
    summary,
    items,
    metrics: [
      ...endpoints.map((e) => e.time.metric),
      unjudgedMetric('readyz_failed', probe.readyz.failed.length, { min: 0 }),
      unjudgedMetric('livez_failed', probe.livez.failed.length, { min: 0 }),
    ],
  };
}
