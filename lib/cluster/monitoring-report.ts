// How check_cluster_monitoring turns what it read into a state, a summary, long output and
// perfdata.
import type { Metric } from '../plugin/perfdata';
import type { Item, Result } from '../plugin/result';
import type { ScalarContext } from '../plugin/scalar-context';
import { State } from '../plugin/state';
import { problemsFirst, worstOf, type Subcheck } from '../plugin/subcheck';
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

/** A subcheck of the status line: the operator, the pods, workload monitoring. */
interface Part extends Subcheck {
  state: State;
  text: string;
}

/** What one subcheck found: its parts of the status line and its lines of long output. */
interface Found {
  parts: Part[];
  items: Item[];
}

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
  const found = [operatorFound(f), podsFound(f, checked, notReady, pods.state), userWorkloadFound(f, t)];
  const parts = found.flatMap((x) => x.parts);
  const metrics: Metric[] = [
    { label: 'pods', value: checked.length, min: 0 },
    { label: 'pods_ready', value: checked.length - notReady.length, min: 0, max: checked.length },
    pods.metric,
    { label: 'user_workload', value: uwmOn ? 1 : 0, min: 0, max: 1 },
  ];
  // Problems lead: the summary may be cut short by the monitoring engine.
  return {
    state: worstOf(parts),
    summary: problemsFirst(parts)
      .map((p) => p.text)
      .join('; '),
    items: found.flatMap((x) => x.items),
    metrics,
  };
}

/** The monitoring ClusterOperator: available, or what is broken, and whether it is progressing. */
function operatorFound(f: MonitoringFacts): Found {
  const found: Found = { parts: [], items: [] };
  if (!f.operator) return found;
  const { parts, items } = found;
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
  return found;
}

/** The pods of the stack: none at all, all ready, or which are not (in the state -w/-c give their number). */
function podsFound(f: MonitoringFacts, checked: readonly PodHealth[], notReady: readonly PodHealth[], podState: State): Found {
  const parts: Part[] = [];
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
  return { parts, items: notReady.map((p) => ({ name: `pod/${p.namespace}/${p.name}`, state: podItemState, text: `pod ${describePod(p)}` })) };
}

/** Workload monitoring: on with every component ready, on with some missing, off (expected on or not). */
function userWorkloadFound(f: MonitoringFacts, t: MonitoringThresholds): Found {
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
    if (missing.length === 0) return { parts: [{ state: State.OK, text: 'workload monitoring on' }], items };
    const text = `workload monitoring on but ${missing.join(', ')} ${missing.length === 1 ? 'has' : 'have'} no ready pod in ${f.userWorkloadNamespace}`;
    return { parts: [{ state: State.CRITICAL, text }], items };
  }
  if (t.expectUserWorkload) {
    const text = `workload monitoring off (${f.config.source}) but expected on; ${enableUserWorkloadSteps(f.platformNamespace)}`;
    return { parts: [{ state: State.CRITICAL, text }], items: [{ name: 'user-workload', state: State.CRITICAL, text }] };
  }
  // Without the ClusterOperator and the ConfigMap (plain Kubernetes, OpenShift 3) there is
  // no workload monitoring to speak of.
  if (f.operator || !f.config.source.startsWith('no ConfigMap '))
    return { parts: [{ state: State.OK, text: `workload monitoring off (${f.config.source})` }], items: [] };
  return { parts: [], items: [] };
}
