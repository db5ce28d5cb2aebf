// check_edge_gateways: the state of the tenants' edge gateways (a tenant's whole network):
// not realised, failed, or busy too long is CRITICAL, HA degraded WARNING.
import { blankControlCharacters } from '../../lib/plugin/control-characters';
import { CheckError } from '../../lib/plugin/errors';
import { defaultCacheDir, PrivateCache } from '../../lib/plugin/private-cache';
import type { PluginDefinition } from '../../lib/plugin/run';
import { State } from '../../lib/plugin/state';
import { principal } from '../../lib/vcd/api/login';
import { vcdFrameCheck } from '../vcd-family';
import { BusySince } from '../../lib/vcd/edges/busy-since';
import { readEdges } from '../../lib/vcd/edges/edge-read';
import { judgeEdges, selectEdges } from '../../lib/vcd/edges/edge-report';
import { configureEdges } from './config';
import { EDGES_OPTIONS } from './options';

export const plugin: PluginDefinition<typeof EDGES_OPTIONS> = vcdFrameCheck({
  name: 'EDGE_GATEWAYS',
  command: 'check_edge_gateways',
  description:
    "Checks VMware Cloud Director's edge gateways: one that failed, is not realised, or has been busy longer than --busy-grace is CRITICAL, named with its organisation; HA degraded is WARNING. A tenant account sees its organisation's edge gateways, a System account every organisation's (--tenant-org narrows).",
  usage: 'check_edge_gateways -u URL -U USER -o ORG --password-file PATH [--edge NAME|ID] [--tenant-org NAME] [--busy-grace DURATION] [--discovery] [options]',
  options: EDGES_OPTIONS,
  examples: [
    'check_edge_gateways -u https://vcd.example.com -U provider-monitor -o System --password-file /etc/nagios/vcd-system.pw',
    'check_edge_gateways -u https://vcd.example.com -U monitor -o acme --password-file PW --edge acme-edge-01 --busy-grace 1h',
    'check_edge_gateways -u https://vcd.example.com -U provider-monitor -o System --password-file PW --tenant-org acme --discovery',
  ],
  notes: [
    "Reads the CloudAPI list GET /cloudapi/1.0.0/edgeGateways (API 34.0 and later; status PENDING or CONFIGURING is busy, REALIZED up, REALIZATION_FAILED failed, anything else not realised). Where the server has no such list, or its list gives no status, it reads the query service's edgeGateway records (gatewayStatus READY is up; isBusy; haStatus other than UP, NOT_APPLICABLE or DISABLED is HA degraded; orgName from API 38.0).",
    'Rights: a tenant account needs to view its edge gateways (Gateway: View; the Organization Administrator role has it); a System account sees every organisation.',
    'Perfdata: edges, edges_realized, edges_busy, edges_problem. A state the answer does not give is UNKNOWN for that edge gateway alone.',
    'How long an edge gateway has been busy is kept in the cache directory beside the sessions (--no-cache: judged from this run alone).',
  ],
  configure: configureEdges,
  async read(frame, config, context) {
    const { session } = frame;
    const { tenantOrg } = session.scope;
    const { edges: all, source } = await readEdges(session, tenantOrg);
    context.notes.add(`read from the ${source}`);
    frame.note();
    const where = { account: principal(session.creds), origin: config.base.origin };
    if (all.length === 0 && tenantOrg !== undefined)
      throw new CheckError(`no edge gateway in org ${JSON.stringify(tenantOrg)} is visible to ${where.account} at ${where.origin}, check --tenant-org`);
    const edges = selectEdges(all, config.edge, where);
    if (config.discovery) {
      const lld = edges.map((e) => ({ '{#EDGE.ID}': e.id, '{#EDGE.NAME}': blankControlCharacters(e.name), '{#EDGE.ORG}': blankControlCharacters(e.org) }));
      return { state: State.OK, summary: '', raw: `${JSON.stringify(lld)}\n` };
    }
    const memory = new PrivateCache(config.cacheDir ?? defaultCacheDir(), { label: 'busy-time cache', fallback: 'judging busy edges without it' });
    const busy = new BusySince(config.noCache ? undefined : memory, { url: config.base.origin, user: session.creds.user ?? '', org: session.creds.org });
    const now = Date.now();
    const since = busy.update(
      all.filter((e) => e.busy).map((e) => e.id),
      now,
    );
    for (const n of memory.notes) context.notes.add(n);
    const scope = tenantOrg === undefined ? '' : ` of org ${tenantOrg}`;
    const result = judgeEdges(edges, since, { graceSeconds: config.graceSeconds, now, remembers: busy.remembers, scope });
    return frame.finish(result);
  },
});
