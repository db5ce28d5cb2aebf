// The vCD cells, as a System account reads them: the CloudAPI list (GET /cloudapi/1.0.0/cells,
// Cell: name, isActive, and from API 38.1 on a status ACTIVE, MAINTENANCE, QUIESCED or
// INACTIVE), or the query service's CellRecord (isActive as 0/1) where there is no CloudAPI.
// The API has no heartbeat: a cell is serving when it is active and its status, if sent, is ACTIVE.
import { CheckError } from '../../plugin/errors';
import { countJsonContainers } from '../../plugin/json-bounds';
import { boundedExcerpt } from '../../plugin/server-text';
import { detached, parseRecordsEnvelope } from '../api/query-pages';

/** One cell as read. */
export interface Cell {
  name: string;
  /** Undefined when the answer does not say. */
  active?: boolean;
  /** ACTIVE, MAINTENANCE, QUIESCED, INACTIVE (Cell.status, API 38.1 and later). */
  status?: string;
  version?: string;
}

/** More cells than any vCD server group has: the answer is cut here. */
export const MAX_CELLS = 1000;
/** A cells page is a few objects per cell. */
const MAX_CELL_CONTAINERS = 20 * MAX_CELLS;

function shortText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? detached(boundedExcerpt(value.trim(), 128)) : undefined;
}

/** Whether a cell serves: active (when said) and, when a status is sent, ACTIVE. */
export function cellServes(cell: Cell): boolean {
  if (cell.active === false) return false;
  if (cell.status !== undefined && cell.status !== 'ACTIVE') return false;
  return cell.active === true || cell.status === 'ACTIVE';
}

/** What a cell that does not serve is: its status, else `not active`, else `state unknown`. */
export function describeCell(cell: Cell): string {
  if (cell.status !== undefined && cell.status !== 'ACTIVE') return cell.status;
  if (cell.active === false) return 'not active';
  if (cell.active === undefined && cell.status === undefined) return 'state unknown';
  return 'serving';
}

/** Reads a CloudAPI page of cells: `{ "values": [ { "name", "isActive", "status", … } ], "pageCount" }`. */
export function parseCloudApiCells(body: Buffer, what: string): { cells: Cell[]; pageCount?: number } {
  if (countJsonContainers(body, MAX_CELL_CONTAINERS) > MAX_CELL_CONTAINERS) throw new CheckError(`unexpected ${what}: far more than ${MAX_CELLS} cells`);
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch {
    throw new CheckError(`unexpected ${what}: not JSON`);
  }
  const values = (doc as { values?: unknown } | null)?.values;
  if (!Array.isArray(values)) throw new CheckError(`unexpected ${what}: no "values" list of cells`);
  const pageCount = (doc as { pageCount?: unknown }).pageCount;
  const cells = values.slice(0, MAX_CELLS).map((v: unknown, i): Cell => {
    const c = (v ?? {}) as Record<string, unknown>;
    const status = shortText(c.status)?.toUpperCase();
    return {
      name: shortText(c.name) ?? shortText(c.primaryIP) ?? `cell ${i + 1}`,
      ...(typeof c.isActive === 'boolean' ? { active: c.isActive } : {}),
      ...(status === undefined ? {} : { status }),
      ...(shortText(c.productVersion) === undefined ? {} : { version: shortText(c.productVersion) }),
    };
  });
  return { cells, ...(typeof pageCount === 'number' && Number.isInteger(pageCount) ? { pageCount } : {}) };
}

/** Reads a page of CellRecord elements (the `cell` query): isActive is 1 or 0. */
export function parseCellRecords(body: string, what: string): Cell[] {
  const page = parseRecordsEnvelope(body, what, ['CellRecord']);
  return page.records.slice(0, MAX_CELLS).map(({ attributes: a }, i): Cell => {
    const active = a.isActive === '1' || a.isActive === 'true' ? true : a.isActive === '0' || a.isActive === 'false' ? false : undefined;
    return {
      name: shortText(a.name) ?? shortText(a.primaryIp) ?? `cell ${i + 1}`,
      ...(active === undefined ? {} : { active }),
      ...(shortText(a.version) === undefined ? {} : { version: shortText(a.version) }),
    };
  });
}
