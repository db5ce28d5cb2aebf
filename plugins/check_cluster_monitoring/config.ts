import type { ClusterTarget, GetOptions } from '../../lib/cluster/client';
import { clusterTargetFrom } from '../../lib/cluster/target';
import type { RunContext } from '../../lib/plugin/context';
import { clusterGetOptions } from '../cluster-family';
import { UsageError } from '../../lib/plugin/errors';
import { positiveInteger } from '../../lib/plugin/options';
import { ScalarContext } from '../../lib/plugin/scalar-context';
import type { MonitoringOptions } from './options';

const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

function namespaceOption(ns: string, option: string): string {
  if (!NAMESPACE.test(ns)) throw new UsageError(`invalid ${option} ${JSON.stringify(ns)}: expected a namespace name (lower-case letters, digits and -)`);
  return ns;
}

/** Everything check_cluster_monitoring's options say, validated before the first request. */
export interface MonitoringCheckConfig {
  target: ClusterTarget;
  platformNamespace: string;
  userWorkloadNamespace: string;
  /** -w/-c on the pods not ready. */
  notReady: ScalarContext;
  expectUserWorkload: boolean;
  get: GetOptions & { maxPods: number };
}

/** The options of check_cluster_monitoring as its config. */
export async function configureMonitoring(options: MonitoringOptions, context: RunContext): Promise<MonitoringCheckConfig> {
  const target = await clusterTargetFrom(options, context, context.notes);
  const platformNamespace = namespaceOption(options['monitoring-namespace'], '--monitoring-namespace');
  const userWorkloadNamespace = namespaceOption(options['user-workload-namespace'], '--user-workload-namespace');
  const notReady = ScalarContext.fromOptions(options);
  const slip = notReady.slip;
  if (slip) context.notes.add(slip);
  context.log(2, `namespaces: platform ${platformNamespace}, workload ${userWorkloadNamespace}`);
  return {
    target,
    platformNamespace,
    userWorkloadNamespace,
    notReady,
    expectUserWorkload: options['expect-user-workload'],
    get: {
      ...clusterGetOptions(options, context),
      maxPods: positiveInteger(options['max-pods'], '--max-pods'),
    },
  };
}
