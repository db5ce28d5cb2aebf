// check_edge_gateways' judgement: each edge gateway realised and idle is OK; one that failed,
// is not realised, or has been busy longer than --busy-grace is CRITICAL, named with its
// organisation; HA degraded is WARNING; a state the answer does not give is UNKNOWN for that
// edge alone.
import { CheckError } from '../../plugin/errors';
import { formatDuration } from '../../plugin/duration';
import { resultFromItems, type Item, type Result } from '../../plugin/result';
import { unjudgedMetric } from '../../plugin/scalar-context';
import { Named, part, Verdict, type Part } from '../../plugin/part';
import { State } from '../../plugin/state';
import type { ObjectTarget } from '../api/ids';
import type { EdgeGateway } from './edge-read';

/** States of an edge that is up: CloudAPI REALIZED, the record's gatewayStatus READY. */
const REALISED = new Set(['REALIZED', 'READY']);
const FAILED = new Set(['REALIZATION_FAILED', 'FAILED', 'FAILED_CREATION']);
/** haStatus values of an HA pair that is whole, or of an edge without HA. */
const HA_FINE = new Set(['UP', 'NOT_APPLICABLE', 'DISABLED']);
/** Problems named in the status line at most. */
const IN_SUMMARY = 10;

const quote = (s: string) => JSON.stringify(s);

/** The edges --edge names (all without it): by id, by exact name, then ignoring case; an unknown or ambiguous one is UNKNOWN. */
export function selectEdges(edges: readonly EdgeGateway[], target: ObjectTarget | undefined, where: { account: string; origin: string }): EdgeGateway[] {
  const unique = [...new Map(edges.map((e) => [e.id, e])).values()];
  if (target === undefined) return unique;
  let found = target.kind === 'id' ? unique.filter((e) => e.id === target.id) : unique.filter((e) => e.name === target.name);
  if (found.length === 0 && target.kind === 'name') found = unique.filter((e) => e.name.toLowerCase() === target.name.toLowerCase());
  const asked = target.kind === 'id' ? `with id ${target.id}` : `named ${quote(target.name.slice(0, 120))}`;
  if (found.length === 0) throw new CheckError(`no edge gateway ${asked} is visible to ${where.account} at ${where.origin}, check --edge (and --tenant-org)`);
  if (found.length > 1)
    throw new CheckError(
      `${found.length} edge gateways are ${asked}: ${found
        .slice(0, 10)
        .map((e) => `${e.name} in org ${quote(e.org)} (${e.id})`)
        .join(', ')}, give the id with --edge or add --tenant-org`,
    );
  return found;
}

/** How an edge is named: with its organisation (a System account sees many). */
function edgeName(e: EdgeGateway): string {
  return `${e.name || e.id} (org ${e.org || 'unknown'})`;
}

/** One edge judged: its state and what is said of it. */
function judgeEdge(e: EdgeGateway, busySince: number | undefined, graceSeconds: number, now: number, remembers: boolean): Part {
  const ha = e.ha !== undefined && !HA_FINE.has(e.ha) ? `, HA degraded (haStatus ${e.ha})` : '';
  const haState = ha === '' ? State.OK : State.WARNING;
  if (e.busy) {
    if (busySince === undefined) return part(`busy (${remembers ? 'since now' : 'for how long unknown: no cache'})${ha}`, haState);
    const seconds = Math.max(0, Math.round((now - busySince) / 1000));
    const over = seconds > graceSeconds;
    return part(
      `busy for ${formatDuration(Math.max(1, seconds))}${over ? ` (more than --busy-grace ${formatDuration(graceSeconds)})` : ''}${ha}`,
      over ? State.CRITICAL : haState,
    );
  }
  if (e.status === undefined) return part(`state not reported by this vCD${ha}`, State.UNKNOWN);
  if (FAILED.has(e.status)) return part(`failed (${e.status})${ha}`, State.CRITICAL);
  if (!REALISED.has(e.status)) return part(`not realised (${e.status})${ha}`, State.CRITICAL);
  return part(`realised${ha}`, haState);
}

/** The result of check_edge_gateways over the edges read. */
export function judgeEdges(
  edges: readonly EdgeGateway[],
  busySince: ReadonlyMap<string, number>,
  options: { graceSeconds: number; now: number; remembers: boolean; scope: string },
): Result {
  const items: Item[] = [];
  const problems = new Named(IN_SUMMARY);
  let realised = 0;
  let busy = 0;
  for (const e of [...edges].sort((a, b) => (a.org + a.name < b.org + b.name ? -1 : 1))) {
    if (e.busy) busy++;
    else if (e.status !== undefined && REALISED.has(e.status)) realised++;
    const where = e.vdc === '' ? '' : `, VDC ${e.vdc}`;
    const { state, text } = judgeEdge(e, busySince.get(e.id), options.graceSeconds, options.now, options.remembers);
    const v = new Verdict(`${edgeName(e)}${where}`).add(text ?? '', state);
    items.push(v.item(e.name));
    problems.add(v.problem(edgeName(e)));
  }
  const metrics = [
    unjudgedMetric('edges', edges.length, { min: 0 }),
    unjudgedMetric('edges_realized', realised, { min: 0, max: edges.length }),
    unjudgedMetric('edges_busy', busy, { min: 0, max: edges.length }),
    unjudgedMetric('edges_problem', problems.count, { min: 0, max: edges.length }),
  ];
  if (edges.length === 1) return resultFromItems(`edge gateway ${items[0].text}`, items, metrics);
  const n = `${edges.length} edge gateways${options.scope}`;
  if (problems.count === 0) return resultFromItems(`${n}: all realised${busy > 0 ? ` (${busy} busy within --busy-grace)` : ''}`, items, metrics);
  return resultFromItems(`${n}: ${problems.said(', ')}`, items, metrics);
}
