// How check_cluster_monitoring turns what it read into a state, a summary, long output and
// perfdata.
import type { Metric } from '../plugin/perfdata';
import type { Range } from '../plugin/range';
import type { Item, Result } from '../plugin/result';
import { State, worstState } from '../plugin/state';
import { ScalarContext } from '../plugin/scalar-context';
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
  /** Ranges on the number of pods not ready. */
  warning?: Range;
  critical?: Range;
  expectUserWorkload?: boolean;
}

/** How many pods the summary names before "and N more". */
const NAMED_IN_SUMMARY = 5;
/** How much of an operator's message the summary keeps. */
const MESSAGE_IN_SUMMARY = 300;
/** And the long output: real messages are a few hundred characters; a hostile one is cut. */
const MESSAGE_IN_ITEM = 4000;

interface Part {
  state: State;
  text: string;
}

/** The steps that switch workload monitoring on, as the fix of "workload monitoring is off". */
export function enableUserWorkloadSteps(namespace: string): string {
  return `to switch it on, as a cluster administrator run oc -n ${namespace} edit configmap ${MONITORING_CONFIGMAP} (create it if missing) and set enableUserWorkload: true in data/config.yaml; prometheus-operator, prometheus-user-workload and thanos-ruler-user-workload start within minutes`;
}

/** Evaluates the facts against the thresholds into the plugin's result. */
export function evaluateMonitoring(f: MonitoringFacts, t: MonitoringThresholds): Result {
  const parts: Part[] = [];
  const items: Item[] = [];

  if (f.operator) {
    const { operator, health } = f.operator;
    const version = operator.version ? ` ${operator.version}` : '';
    if (health.healthy) parts.push({ state: State.OK, text: `ClusterOperator ${operator.name}${version} available` });
    else
      parts.push({
        state: State.CRITICAL,
        text: `ClusterOperator ${operator.name}${version} ${health.broken.map((c) => describeCondition(c, MESSAGE_IN_SUMMARY)).join('; ')}`,
      });
    for (const c of health.broken)
      items.push({
        name: `operator/${c.type}`,
        state: State.CRITICAL,
        text: `ClusterOperator ${operator.name}: ${describeCondition(c, MESSAGE_IN_ITEM)}${c.lastTransitionTime ? ` (since ${c.lastTransitionTime})` : ''}`,
      });
    if (health.progressing) {
      parts.push({ state: State.OK, text: describeCondition(health.progressing, MESSAGE_IN_SUMMARY).replace(/^Progressing=True/, 'progressing') });
      items.push({
        name: 'operator/Progressing',
        state: State.OK,
        text: `ClusterOperator ${operator.name}: ${describeCondition(health.progressing, MESSAGE_IN_ITEM)} (reported, not a failure)`,
      });
    }
  }

  const uwmOn = f.config.userWorkload;
  const checked = [...f.platformPods, ...(uwmOn ? (f.userWorkloadPods ?? []) : [])].filter((p) => !p.completed);
  const notReady = checked.filter((p) => !p.ready);
  const pods = new ScalarContext({ warning: t.warning, critical: t.critical });
  const podState = pods.evaluate(notReady.length);
  const platformChecked = f.platformPods.filter((p) => !p.completed).length;
  if (platformChecked === 0) {
    // An OpenShift 4 cluster always runs the platform stack: none means it is gone. Without
    // the ClusterOperator the namespace is more likely wrong than the stack missing.
    parts.push(
      f.operator
        ? { state: State.CRITICAL, text: `no pods in namespace ${f.platformNamespace}: the platform monitoring stack is not running` }
        : { state: State.UNKNOWN, text: `no pods in namespace ${f.platformNamespace} and no ClusterOperator monitoring; check --monitoring-namespace` },
    );
  }
  if (notReady.length === 0) parts.push({ state: State.OK, text: `${checked.length} of ${checked.length} pods ready` });
  else {
    const named = notReady.slice(0, NAMED_IN_SUMMARY).map(describePod).join(', ');
    const rest = notReady.length > NAMED_IN_SUMMARY ? ` and ${notReady.length - NAMED_IN_SUMMARY} more` : '';
    parts.push({ state: podState, text: `${notReady.length} of ${checked.length} pods not ready: ${named}${rest}` });
  }
  const podItemState = podState === State.CRITICAL ? State.CRITICAL : State.WARNING;
  for (const p of notReady) items.push({ name: `pod/${p.namespace}/${p.name}`, state: podItemState, text: `pod ${describePod(p)}` });

  if (uwmOn) {
    const pods = (f.userWorkloadPods ?? []).filter((p) => !p.completed);
    const missing: string[] = [];
    for (const c of USER_WORKLOAD_COMPONENTS) {
      const mine = pods.filter((p) => podOfComponent(p, c));
      const ready = mine.filter((p) => p.ready).length;
      if (ready === 0) missing.push(c.name);
      const text = mine.length === 0 ? `no pod in namespace ${f.userWorkloadNamespace}` : `${ready} of ${mine.length} pods ready`;
      items.push({ name: `component/${c.name}`, state: ready === 0 ? State.CRITICAL : State.OK, text: `component ${c.name}: ${text}` });
    }
    if (missing.length === 0) parts.push({ state: State.OK, text: 'workload monitoring on' });
    else
      parts.push({
        state: State.CRITICAL,
        text: `workload monitoring on but ${missing.join(', ')} ${missing.length === 1 ? 'has' : 'have'} no ready pod in ${f.userWorkloadNamespace}`,
      });
  } else if (t.expectUserWorkload) {
    const text = `workload monitoring off (${f.config.source}) but expected on; ${enableUserWorkloadSteps(f.platformNamespace)}`;
    parts.push({ state: State.CRITICAL, text });
    items.push({ name: 'user-workload', state: State.CRITICAL, text });
  } else if (f.operator || !f.config.source.startsWith('no ConfigMap ')) {
    // Without the ClusterOperator and the ConfigMap (plain Kubernetes, OpenShift 3) there is
    // no workload monitoring to speak of.
    parts.push({ state: State.OK, text: `workload monitoring off (${f.config.source})` });
  }

  // Problems lead: the summary may be cut short by the monitoring engine.
  const ordered = [...parts.filter((p) => p.state !== State.OK), ...parts.filter((p) => p.state === State.OK)];
  const metrics: Metric[] = [
    { label: 'pods', value: checked.length, min: 0 },
    { label: 'pods_ready', value: checked.length - notReady.length, min: 0, max: checked.length },
    pods.perfdata('pods_not_ready', notReady.length, { min: 0, max: checked.length }),
    { label: 'user_workload', value: uwmOn ? 1 : 0, min: 0, max: 1 },
  ];
  return { state: worstState(parts.map((p) => p.state)), summary: ordered.map((p) => p.text).join('; '), items, metrics };
}
