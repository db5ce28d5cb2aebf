import type { ClusterTarget, GetOptions } from '../../lib/cluster/client';
import type { CertRules } from '../../lib/cluster/certs-report';
import { clusterTargetFrom } from '../../lib/cluster/target';
import type { RunContext } from '../../lib/plugin/context';
import { clusterGetOptions } from '../cluster-family';
import { parseDuration } from '../../lib/plugin/duration';
import { UsageError } from '../../lib/plugin/errors';
import { positiveInteger } from '../../lib/plugin/options';
import { DAYS, TimeLeft } from '../../lib/plugin/time-left';
import type { CertsOptions } from './options';

/** Everything check_cluster_certs' options say, validated before the first request. */
export interface CertsConfig {
  target: ClusterTarget;
  rules: Omit<CertRules, 'now'>;
  get: GetOptions & { maxCsrs: number; skipCsrs: boolean };
}

/** A certificate lives at most this long: 100 years, the simulator's CA included. */
const LIFETIME = { maxSeconds: 100 * 366 * 86400, days: true };

/** The options of check_cluster_certs as its config. */
export async function configureCerts(options: CertsOptions, context: RunContext): Promise<CertsConfig> {
  const target = await clusterTargetFrom(options, context, context.notes);
  const warning = parseDuration(options.warning, '-w/--warning', LIFETIME);
  const critical = parseDuration(options.critical, '-c/--critical', LIFETIME);
  if (critical > warning)
    throw new UsageError(`-c/--critical ${options.critical} is longer than -w/--warning ${options.warning}: CRITICAL would come first; swap them`);
  return {
    target,
    rules: {
      daysLeft: new TimeLeft({ warning, critical }, DAYS),
      csrGrace: parseDuration(options['csr-grace'], '--csr-grace', { maxSeconds: 30 * 86400, days: true }),
    },
    get: {
      ...clusterGetOptions(options, context),
      maxCsrs: positiveInteger(options['max-csrs'], '--max-csrs'),
      skipCsrs: options['skip-csrs'],
    },
  };
}
