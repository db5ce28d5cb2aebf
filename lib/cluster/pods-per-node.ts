// Pods per node, read cheaply: the pod list in the server-side Table form
// (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`, `includeObject=None`) is a row of
// nine short cells a pod instead of a 5-15 KB object, and the field selector leaves out the
// Succeeded and Failed pods that hold no slot. A server that ignores the Table form sends a
// PodList: its items are read for spec.nodeName instead.
import { checkDeadline } from '../plugin/deadline';
import { CheckError } from '../plugin/errors';
import type { ClusterTarget, GetOptions } from './client';
import { pageThrough } from './list-pages';

export const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json';
/** Pods that hold a slot on their node: every phase but the terminated ones. */
export const RUNNING_PHASES = 'status.phase!=Succeeded,status.phase!=Failed';
/** Rows are small in the Table form: larger pages, fewer round trips. */
const POD_PAGE = 2000;
/** Far above any cluster (Kubernetes supports 150,000 pods). */
export const DEFAULT_MAX_PODS = 1_000_000;

export interface PodCount {
  /** Non-terminated pods bound to each node, by node name. */
  byNode: Map<string, number>;
  /** Every pod listed (unbound ones too). */
  pods: number;
  pages: number;
  /** The server answered in the Table form. */
  table: boolean;
}

function nodeColumn(page: Record<string, unknown>): number {
  const columns = page.columnDefinitions;
  const index = Array.isArray(columns) ? columns.findIndex((c) => c !== null && typeof c === 'object' && (c as { name?: unknown }).name === 'Node') : -1;
  if (index < 0)
    throw new CheckError(
      'the pod Table has no Node column (columnDefinitions lack "Node"): the API server, or an aggregated API in front of it, prints pods otherwise; check --url points at the Kubernetes API server',
    );
  return index;
}

/** Counts the rows of one page into `count`; returns how many rows (or items) it held. */
function countPage(page: Record<string, unknown>, count: PodCount): number {
  const bump = (node: unknown) => {
    if (typeof node === 'string' && node !== '' && node !== '<none>') count.byNode.set(node, (count.byNode.get(node) ?? 0) + 1);
  };
  if (page.kind === 'Table') {
    count.table = true;
    const column = nodeColumn(page);
    const rows = page.rows;
    if (!Array.isArray(rows)) throw new CheckError('the pod Table has no rows array; check --url points at the Kubernetes API server');
    for (const row of rows) {
      const cells = row !== null && typeof row === 'object' ? (row as { cells?: unknown }).cells : undefined;
      if (!Array.isArray(cells) || cells.length <= column)
        throw new CheckError(`a row of the pod Table has no cell ${column + 1} (Node); the server's Table is broken`);
      bump(cells[column]);
    }
    return rows.length;
  }
  if (page.kind !== undefined && page.kind !== 'PodList')
    throw new CheckError(`the pod list is a ${String(page.kind).slice(0, 60)}, not a Table or PodList; check --url`);
  const items = page.items;
  if (!Array.isArray(items)) throw new CheckError('the pod list has no items array; check --url points at the Kubernetes API server');
  for (const item of items) bump((item as { spec?: { nodeName?: unknown } } | null)?.spec?.nodeName);
  return items.length;
}

/** Lists the non-terminated pods of every namespace and counts them per node. */
export async function countPodsPerNode(target: ClusterTarget, options: GetOptions & { maxPods: number }): Promise<PodCount> {
  const count: PodCount = { byNode: new Map(), pods: 0, pages: 0, table: false };
  const { pages, items } = await pageThrough(
    target,
    {
      path: '/api/v1/pods',
      permission: { verb: 'list', resource: 'pods' },
      what: 'a pod Table',
      query: { fieldSelector: RUNNING_PHASES, includeObject: 'None' },
      accept: TABLE_ACCEPT,
      limit: POD_PAGE,
      maxItems: options.maxPods,
      maxOption: '--max-pods',
    },
    options,
    (page) => {
      const n = countPage(page, count);
      checkDeadline('counting pods per node');
      return n;
    },
    () => count.byNode.clear(),
  );
  return { ...count, pods: items, pages };
}
