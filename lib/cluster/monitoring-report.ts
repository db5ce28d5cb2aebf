// How check_cluster_monitoring turns what it read into a state, a summary, long output and
// perfdata.
import { nameSome, part, resultOf, type Part } from '../plugin/part';
import type { Item, Result } from '../plugin/result';
import { unjudgedMetric, type ScalarContext } from '../plugin/scalar-context';
import { State } from '../plugin/state';
import { describeCondition, type ClusterOperatorStatus, type OperatorHealth } from './cluster-operator';
import { MONITORING_CONFIGMAP, type MonitoringConfig } from './monitoring-config';
import { describePod, podOfComponent, USER_WORKLOAD_COMPONENTS, type PodHealth } from './pod-health';

/** Everything the check read. */
export interface MonitoringFacts {
  /** Undefined when the cluster has no monitoring ClusterOperator (404: OpenShift 3, plain Kubernetes). */
  operator?: { operator: ClusterOperatorStatus; health: OperatorHealth };
  config: MonitoringConfig;
  platformNamespace: string;
  platformPods: PodHealth[];
  userWorkloadNamespace: string;
  /** Read only when workload monitoring is on. */
  userWorkloadPods?: PodHealth[];
}

export interface MonitoringThresholds {
  /** -w/-c on the number of pods not ready. */
  notReady: ScalarContext;
  expectUserWorkload?: boolean;
}

/** How many pods the summary names before "and N more". */
const NAMED_IN_SUMMARY = 5;
/** How much of an operator's message the summary keeps. */
const MESSAGE_IN_SUMMARY = 300;
/** And the long output: real messages are a few hundred characters; a hostile one is cut. */
const MESSAGE_IN_ITEM = 4000;

/** The steps that switch workload monitoring on, as the fix of "workload monitoring is off". */
export function enableUserWorkloadSteps(namespace: string): string {
  return `to switch it on, as a cluster administrator run oc -n ${namespace} edit configmap ${MONITORING_CONFIGMAP} (create it if missing) and set enableUserWorkload: true in data/config.yaml; prometheus-operator, prometheus-user-workload and thanos-ruler-user-workload start within minutes`;
}

/** Evaluates the facts against the thresholds into the plugin's result. */
export function evaluateMonitoring(f: MonitoringFacts, t: MonitoringThresholds): Result {
  const uwmOn = f.config.userWorkload;
  const checked = [...f.platformPods, ...(uwmOn ? (f.userWorkloadPods ?? []) : [])].filter((p) => !p.completed);
  const notReady = checked.filter((p) => !p.ready);
  const pods = t.notReady.measure('pods_not_ready', notReady.length, { min: 0, max: checked.length });
  const metrics = [
    unjudgedMetric('pods', checked.length, { min: 0 }),
    unjudgedMetric('pods_ready', checked.length - notReady.length, { min: 0, max: checked.length }),
    pods.metric,
    unjudgedMetric('user_workload', uwmOn ? 1 : 0, { min: 0, max: 1 }),
  ];
  // Problems lead (lib/plugin words them so): the summary may be cut short by the monitoring engine.
  return resultOf([...operatorParts(f), ...podsParts(f, checked, notReady, pods.state), ...userWorkloadParts(f, t)], { metrics });
}

/** The monitoring ClusterOperator: available, or what is broken, and whether it is progressing. */
function operatorParts(f: MonitoringFacts): Part[] {
  if (!f.operator) return [];
  const { operator, health } = f.operator;
  const version = operator.version ? ` ${operator.version}` : '';
  const broken: Item[] = health.broken.map((c) => ({
    name: `operator/${c.type}`,
    state: State.CRITICAL,
    text: `ClusterOperator ${operator.name}: ${describeCondition(c, MESSAGE_IN_ITEM)}${c.lastTransitionTime ? ` (since ${c.lastTransitionTime})` : ''}`,
  }));
  const parts: Part[] = [
    health.healthy
      ? part(`ClusterOperator ${operator.name}${version} available`)
      : {
          state: State.CRITICAL,
          text: `ClusterOperator ${operator.name}${version} ${health.broken.map((c) => describeCondition(c, MESSAGE_IN_SUMMARY)).join('; ')}`,
          items: broken,
        },
  ];
  if (health.progressing)
    parts.push({
      state: State.OK,
      text: describeCondition(health.progressing, MESSAGE_IN_SUMMARY).replace(/^Progressing=True/, 'progressing'),
      items: [
        {
          name: 'operator/Progressing',
          state: State.OK,
          text: `ClusterOperator ${operator.name}: ${describeCondition(health.progressing, MESSAGE_IN_ITEM)} (reported, not a failure)`,
        },
      ],
    });
  return parts;
}

/** The pods of the stack: none at all, all ready, or which are not (in the state -w/-c give their number). */
function podsParts(f: MonitoringFacts, checked: readonly PodHealth[], notReady: readonly PodHealth[], podState: State): Part[] {
  const parts: Part[] = [];
  const platformChecked = f.platformPods.filter((p) => !p.completed).length;
  if (platformChecked === 0) {
    // An OpenShift 4 cluster always runs the platform stack: none means it is gone. Without
    // the ClusterOperator the namespace is more likely wrong than the stack missing.
    parts.push(
      f.operator
        ? part(`no pods in namespace ${f.platformNamespace}: the platform monitoring stack is not running`, State.CRITICAL)
        : part(`no pods in namespace ${f.platformNamespace} and no ClusterOperator monitoring; check --monitoring-namespace`, State.UNKNOWN),
    );
  }
  if (notReady.length === 0) return [...parts, part(`${checked.length} of ${checked.length} pods ready`)];
  const named = nameSome(notReady.map(describePod), NAMED_IN_SUMMARY);
  const podItemState = podState === State.CRITICAL ? State.CRITICAL : State.WARNING;
  const items = notReady.map((p) => ({ name: `pod/${p.namespace}/${p.name}`, state: podItemState, text: `pod ${describePod(p)}` }));
  return [...parts, { state: podState, text: `${notReady.length} of ${checked.length} pods not ready: ${named}`, items }];
}

/** Workload monitoring: on with every component ready, on with some missing, off (expected on or not). */
function userWorkloadParts(f: MonitoringFacts, t: MonitoringThresholds): Part[] {
  if (f.config.userWorkload) {
    const pods = (f.userWorkloadPods ?? []).filter((p) => !p.completed);
    const missing: string[] = [];
    const items: Item[] = [];
    for (const c of USER_WORKLOAD_COMPONENTS) {
      const mine = pods.filter((p) => podOfComponent(p, c));
      const ready = mine.filter((p) => p.ready).length;
      if (ready === 0) missing.push(c.name);
      const text = mine.length === 0 ? `no pod in namespace ${f.userWorkloadNamespace}` : `${ready} of ${mine.length} pods ready`;
      items.push({ name: `component/${c.name}`, state: ready === 0 ? State.CRITICAL : State.OK, text: `component ${c.name}: ${text}` });
    }
    if (missing.length === 0) return [{ state: State.OK, text: 'workload monitoring on', items }];
    const text = `workload monitoring on but ${missing.join(', ')} ${missing.length === 1 ? 'has' : 'have'} no ready pod in ${f.userWorkloadNamespace}`;
    return [{ state: State.CRITICAL, text, items }];
  }
  if (t.expectUserWorkload) {
    const text = `workload monitoring off (${f.config.source}) but expected on; ${enableUserWorkloadSteps(f.platformNamespace)}`;
    return [{ state: State.CRITICAL, text, items: [{ name: 'user-workload', state: State.CRITICAL, text }] }];
  }
  // Without the ClusterOperator and the ConfigMap (plain Kubernetes, OpenShift 3) there is
  // no workload monitoring to speak of.
  if (f.operator || !f.config.source.startsWith('no ConfigMap ')) return [part(`workload monitoring off (${f.config.source})`)];
  return [];
}
