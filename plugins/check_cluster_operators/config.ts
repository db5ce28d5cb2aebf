import type { ClusterTarget, GetOptions } from '../../lib/cluster/client';
import type { OperatorRules } from '../../lib/cluster/operators-report';
import { clusterTargetFrom } from '../../lib/cluster/target';
import type { RunContext } from '../../lib/plugin/context';
import { clusterGetOptions } from '../cluster-family';
import { UsageError } from '../../lib/plugin/errors';
import { positiveInteger } from '../../lib/plugin/options';
import { parseState, State } from '../../lib/plugin/state';
import { parseDuration } from '../../lib/plugin/duration';
import type { OperatorsOptions } from './options';

/** Everything check_cluster_operators' options say, validated before the first request. */
export interface OperatorsConfig {
  target: ClusterTarget;
  /** The rules without `now`: the time is taken when the answers are in. */
  rules: Omit<OperatorRules, 'now'>;
  discovery: boolean;
  get: GetOptions & { maxOperators: number; withVersion: boolean };
}

/** The delays are at most a week, as check_nodes' --grace. */
const WEEK = { maxSeconds: 7 * 86400 };

const NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

function operatorName(name: string, option: string): string {
  if (!NAME.test(name))
    throw new UsageError(
      `invalid ${option} ${JSON.stringify(name)}: expected a ClusterOperator name as oc get clusteroperators shows it (lower-case letters, digits, - and .)`,
    );
  return name;
}

/** The options of check_cluster_operators as its config. */
export async function configureOperators(options: OperatorsOptions, context: RunContext): Promise<OperatorsConfig> {
  const target = await clusterTargetFrom(options, context, context.notes);
  const operator = options.operator === undefined ? undefined : operatorName(options.operator, '--operator');
  const ignore = options.ignore.map((n) => operatorName(n, '--ignore'));
  if (operator !== undefined && ignore.includes(operator)) throw new UsageError(`--operator ${operator} is also given to --ignore; drop one of them`);
  return {
    target,
    rules: {
      grace: options.grace === undefined ? undefined : parseDuration(options.grace, '--grace', WEEK),
      progressingGrace: parseDuration(options['progressing-grace'], '--progressing-grace', WEEK),
      updateGrace: parseDuration(options['update-grace'], '--update-grace', WEEK),
      notUpgradeableState: parseState(options['not-upgradeable-state']) ?? State.OK,
      updateAvailableState: parseState(options['update-available-state']) ?? State.OK,
      ignore,
      operator,
      listAll: options['list-all'] || options.output === 'json' || operator !== undefined,
    },
    discovery: options.discovery,
    get: {
      ...clusterGetOptions(options, context),
      maxOperators: positiveInteger(options['max-operators'], '--max-operators'),
      withVersion: operator === undefined && !options.discovery,
    },
  };
}
