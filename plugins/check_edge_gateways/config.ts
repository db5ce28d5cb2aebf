import { parseDuration } from '../../lib/plugin/duration';
import { parseObjectTarget, type ObjectTarget } from '../../lib/vcd/api/ids';
import { baseUrl } from '../../lib/vcd/vm/vm-config';
import type { EdgesOptions } from './options';

/** Everything check_edge_gateways' options say, validated before the first request. */
export interface EdgesConfig {
  base: URL;
  edge?: ObjectTarget;
  graceSeconds: number;
  discovery: boolean;
  /** Where the busy times are kept (--cache-dir; the default cache directory when unset). */
  cacheDir?: string;
  /** --no-cache: busy times judged from this run alone. */
  noCache: boolean;
}

/** --edge: a UUID, `urn:vcloud:gateway:<uuid>` or an API href (`…/edgeGateway/<uuid>`); anything else is a name. */
export function parseEdgeTarget(text: string): ObjectTarget {
  return parseObjectTarget(text, { option: '--edge', urn: 'gateway', segment: 'edgeGateway', noun: 'edge gateway' });
}

/** The options of check_edge_gateways as its config. */
export function configureEdges(options: EdgesOptions): EdgesConfig {
  return {
    base: baseUrl(options.url),
    ...(options.edge !== undefined ? { edge: parseEdgeTarget(options.edge) } : {}),
    graceSeconds: parseDuration(options['busy-grace'], '--busy-grace', { maxSeconds: 7 * 86400, days: true }),
    discovery: options.discovery,
    ...(options['cache-dir'] !== undefined ? { cacheDir: options['cache-dir'] } : {}),
    noCache: options['no-cache'],
  };
}
