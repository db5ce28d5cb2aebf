// check_vcd's judgement: the slowest of the three answers (versions, login, the session)
// against -w/-c in seconds; for a System account, a cell that does not serve is WARNING,
// named, and no cell serving is CRITICAL.
import { formatDecimal } from '../../plugin/number-format';
import type { Metric } from '../../plugin/perfdata';
import { isNamed } from '../../plugin/part';
import { resultFromItems, type Item, type Result } from '../../plugin/result';
import { unjudgedMetric, type ScalarContext } from '../../plugin/scalar-context';
import { State } from '../../plugin/state';
import { cellServes, describeCell } from './cells';
import type { ServiceReading } from './service-probe';

/** Cells named in the status line at most. */
const CELLS_NAMED = 5;

const seconds = (s: number) => `${formatDecimal(s, 3)}s`;

function cellsFinding(reading: ServiceReading): { item: Item; metrics: Metric[]; text: string } {
  const { cells } = reading;
  if (cells === undefined)
    return {
      item: { name: 'cells', state: State.OK, text: 'cells not checked: they are visible to a System account only' },
      metrics: [],
      text: 'cells need a System account',
    };
  if ('error' in cells)
    return {
      item: { name: 'cells', state: State.UNKNOWN, text: `cells could not be read: ${cells.error}` },
      metrics: [],
      text: `cells unknown (${cells.error})`,
    };
  const serving = cells.filter(cellServes);
  const idle = cells.filter((c) => !cellServes(c));
  const metrics = [unjudgedMetric('cells', cells.length, { min: 0 }), unjudgedMetric('cells_serving', serving.length, { min: 0, max: cells.length })];
  const named = idle.slice(0, CELLS_NAMED).map((c) => `${c.name} (${describeCell(c)})`);
  const more = idle.length > CELLS_NAMED ? ` … ${idle.length - CELLS_NAMED} more` : '';
  if (serving.length === 0) {
    const text = cells.length === 0 ? 'no cell listed' : `no cell serving: ${named.join(', ')}${more}`;
    return { item: { name: 'cells', state: State.CRITICAL, text }, metrics, text };
  }
  const text = `${serving.length} of ${cells.length} cells serving${idle.length > 0 ? `: ${named.join(', ')}${more}` : ''}`;
  return { item: { name: 'cells', state: idle.length > 0 ? State.WARNING : State.OK, text }, metrics, text };
}

/** The result of check_vcd. */
export function judgeService(reading: ServiceReading, times: ScalarContext, who: string): Result {
  const { versions, login, query } = reading.times;
  // Each time's state and perfdata from one measurement; the slowest decides, as worst wins.
  const shape = { uom: 's' as const, min: 0 };
  const measured = {
    versions: times.measure('versions_time', versions, shape),
    login: times.measure('login_time', login, shape),
    query: times.measure('query_time', query, shape),
  };
  const slowest = Math.max(versions, login, query);
  const items: Item[] = [
    {
      name: 'versions',
      state: measured.versions.state,
      text: `/api/versions answered in ${seconds(versions)}: ${reading.offered} versions, highest ${reading.highest}`,
    },
    {
      name: 'login',
      state: measured.login.state,
      text: `fresh login as ${who} at API ${reading.version} in ${seconds(login)} (${reading.auth === 'bearer' ? 'CloudAPI' : '/api/sessions'})`,
    },
    { name: 'query', state: measured.query.state, text: `current session read in ${seconds(query)}` },
  ];
  const cells = cellsFinding(reading);
  items.push(cells.item);
  if (reading.logoutProblem !== undefined) items.push({ name: 'logout', state: State.OK, text: `the session was not closed: ${reading.logoutProblem}` });
  const metrics: Metric[] = [measured.versions.metric, measured.login.metric, measured.query.metric, ...cells.metrics];
  const slow = [measured.versions, measured.login, measured.query].some(isNamed) ? `slowest answer ${seconds(slowest)}, ` : '';
  const summary = `${reading.origin} answers: API ${reading.highest}, ${slow}login ${seconds(login)}, ${cells.text}`;
  return resultFromItems(summary, items, metrics);
}
