import { DEFAULT_MAX_OPERATORS } from '../../lib/cluster/operators-probe';
import { CLUSTER_OPTIONS } from '../../lib/cluster/target';
import { HTTP_OPTIONS } from '../../lib/http/options';
import { defineOptions, type PluginOptions } from '../../lib/plugin/options';

const STATES = ['OK', 'WARNING', 'CRITICAL'] as const;

/** The options of check_cluster_operators, in --help order. */
export const OPERATORS_OPTIONS = defineOptions([
  ...CLUSTER_OPTIONS,
  ...HTTP_OPTIONS,
  {
    long: 'grace',
    type: 'string',
    arg: 'DURATION',
    description:
      'An operator Degraded=True or not Available=True whose bad conditions all changed less than DURATION ago (10m, 1h, 1h30m) is WARNING, not CRITICAL: operators flap briefly while an update rolls nodes. Default: CRITICAL at once.',
  },
  {
    long: 'progressing-grace',
    type: 'string',
    arg: 'DURATION',
    default: '30m',
    description: 'An operator Progressing=True for longer than DURATION is WARNING (a rollout that does not finish).',
  },
  {
    long: 'update-grace',
    type: 'string',
    arg: 'DURATION',
    default: '2h',
    description: 'A cluster update in progress for longer than DURATION is WARNING; before that it is OK, with its target and progress.',
  },
  {
    long: 'not-upgradeable-state',
    type: 'string',
    arg: 'STATE',
    choices: STATES,
    default: 'OK',
    description: 'State when an operator or the cluster version says Upgradeable=False (the next minor update is blocked).',
  },
  {
    long: 'update-available-state',
    type: 'string',
    arg: 'STATE',
    choices: STATES,
    default: 'OK',
    description: 'State when the cluster version offers updates (status.availableUpdates).',
  },
  {
    long: 'ignore',
    type: 'list',
    arg: 'NAME',
    description:
      'Skip this operator (repeatable), e.g. an add-on that is known broken; long output lists it as ignored, and a name the cluster does not list is reported.',
  },
  {
    long: 'operator',
    type: 'string',
    arg: 'NAME',
    description:
      'Check this one operator only, not the cluster version (per-operator services and items); UNKNOWN, with the names listed, when the cluster has no such operator.',
  },
  {
    long: 'list-all',
    type: 'boolean',
    description:
      'Long output lists every operator; by default the failing, progressing and noted ones and a count of the rest. --output json always lists every operator.',
  },
  {
    long: 'max-operators',
    type: 'number',
    arg: 'N',
    default: DEFAULT_MAX_OPERATORS,
    description: 'UNKNOWN when the server lists more operators than this (a broken or hostile server cannot exhaust memory).',
  },
  { long: 'discovery', type: 'boolean', description: 'Print Zabbix low-level discovery JSON [{"{#OPERATOR}":"etcd"},...] and exit 0.' },
]);

/** check_cluster_operators' options as parsed. */
export type OperatorsOptions = PluginOptions<typeof OPERATORS_OPTIONS>;
