import { parseDuration } from '../../lib/plugin/duration';
import { UsageError } from '../../lib/plugin/errors';
import type { EdgeTarget } from '../../lib/vcd/edges/edge-report';
import { baseUrl } from '../../lib/vcd/vm/vm-config';
import type { EdgesOptions } from './options';

/** Everything check_edge_gateways' options say, validated before the first request. */
export interface EdgesConfig {
  base: URL;
  edge?: EdgeTarget;
  graceSeconds: number;
  discovery: boolean;
}

const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i;

/** --edge: a UUID, `urn:vcloud:gateway:<uuid>` or an API href (`…/edgeGateway/<uuid>`); anything else is a name. */
export function parseEdgeTarget(text: string): EdgeTarget {
  const trimmed = text.trim();
  if (trimmed === '') throw new UsageError('--edge is empty: give the edge gateway name or its UUID');
  const id =
    new RegExp(`^(?:urn:vcloud:gateway:)?${UUID.source}$`, 'i').exec(trimmed) ??
    new RegExp(`^https?://\\S*/edgeGateways?/(?:urn:vcloud:gateway:)?${UUID.source}/?$`, 'i').exec(trimmed);
  return id ? { kind: 'id', id: id[1].toLowerCase() } : { kind: 'name', name: text };
}

/** The options of check_edge_gateways as its config. */
export function configureEdges(options: EdgesOptions): EdgesConfig {
  return {
    base: baseUrl(options.url),
    ...(options.edge !== undefined ? { edge: parseEdgeTarget(options.edge) } : {}),
    graceSeconds: parseDuration(options['busy-grace'], '--busy-grace', { maxSeconds: 7 * 86400, days: true }),
    discovery: options.discovery,
  };
}
