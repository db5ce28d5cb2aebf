import { HTTP_OPTIONS } from '../../lib/http/options';
import { defineOptions, type PluginOptions } from '../../lib/plugin/options';
import { VCD_LOGIN_OPTIONS, VCD_URL_OPTION } from '../../lib/vcd/api/connection-options';

/** The options of check_edge_gateways, in --help order. */
export const EDGES_OPTIONS = defineOptions([
  VCD_URL_OPTION,
  {
    long: 'edge',
    type: 'string',
    arg: 'NAME|ID',
    description: 'The one edge gateway to check: its name, its UUID or urn:vcloud:gateway:<uuid>. Default: every edge gateway the account sees.',
  },
  {
    long: 'tenant-org',
    type: 'string',
    arg: 'NAME',
    description: "With a provider account (--org System): only this organisation's edge gateways. A tenant account sees only its own.",
  },
  ...VCD_LOGIN_OPTIONS,
  {
    long: 'busy-grace',
    type: 'string',
    arg: 'DURATION',
    default: '30m',
    description:
      'An edge gateway busy (a configuration under way: CloudAPI PENDING or CONFIGURING, or the record isBusy) for longer than this is CRITICAL; until then OK. How long it has been busy is remembered between runs in the cache directory.',
  },
  {
    long: 'discovery',
    type: 'boolean',
    description:
      'List the edge gateways (with --tenant-org, of that organisation) as Zabbix low-level discovery JSON [{"{#EDGE.ID}":…,"{#EDGE.NAME}":…,"{#EDGE.ORG}":…}] and exit 0.',
  },
  ...HTTP_OPTIONS,
]);

/** check_edge_gateways' options as parsed. */
export type EdgesOptions = PluginOptions<typeof EDGES_OPTIONS>;
