// Reads what check_cluster_monitoring judges: the monitoring ClusterOperator, the ConfigMap
// with enableUserWorkload, and the pods of the platform and workload stacks.
import { CheckError } from '../plugin/errors';
import { getJsonObject, getResource, PAGE_LIMIT, parseJsonObject, resourceError, type ClusterTarget, type GetOptions } from './client';
import { judgeClusterOperator, readClusterOperator, type OperatorHealth, type ClusterOperatorStatus } from './cluster-operator';
import { MONITORING_CONFIGMAP, readMonitoringConfig, type MonitoringConfig } from './monitoring-config';
import { classifyPod, type Pod, type PodHealth } from './pod-health';

export const OPERATOR_NAME = 'monitoring';

/** The monitoring ClusterOperator and its verdict; undefined when the API has none (404). */
export async function probeClusterOperator(target: ClusterTarget, options: GetOptions): Promise<{ operator: ClusterOperatorStatus; health: OperatorHealth } | undefined> {
  const path = `/apis/config.openshift.io/v1/clusteroperators/${OPERATOR_NAME}`;
  const doc = await getJsonObject(target, path, { verb: 'get', resource: 'clusteroperators', group: 'config.openshift.io', name: OPERATOR_NAME }, 'a ClusterOperator', options);
  if (doc === undefined) return undefined;
  let operator: ClusterOperatorStatus;
  try {
    operator = readClusterOperator(doc);
  } catch (e) {
    throw new CheckError(`the ClusterOperator ${OPERATOR_NAME} from ${target.url.origin} is not one (${(e as Error).message}); check that --url is the API server of an OpenShift 4 cluster`);
  }
  return { operator, health: judgeClusterOperator(operator) };
}

/** enableUserWorkload from the ConfigMap cluster-monitoring-config of the platform namespace. */
export async function probeMonitoringConfig(target: ClusterTarget, namespace: string, options: GetOptions): Promise<MonitoringConfig> {
  const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/configmaps/${MONITORING_CONFIGMAP}`;
  const doc = await getJsonObject(target, path, { verb: 'get', resource: 'configmaps', namespace, name: MONITORING_CONFIGMAP }, 'a ConfigMap', options);
  return readMonitoringConfig(doc, namespace);
}

/** The pods of a namespace and how many pages they took. */
export interface PodList {
  namespace: string;
  pods: PodHealth[];
  pages: number;
}

/**
 * Lists a namespace's pods page by page (`limit`/`continue`, each page bounded by
 * --max-bytes) and keeps only each pod's verdict. A continue token that expired (410 Gone)
 * restarts the list once, as for the node list.
 */
export async function listPods(target: ClusterTarget, namespace: string, options: GetOptions & { limit?: number }): Promise<PodList> {
  const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`;
  const permission = { verb: 'list', resource: 'pods', namespace } as const;
  let pods: PodHealth[] = [];
  let continueToken: string | undefined;
  let pages = 0;
  let restarted = false;
  for (;;) {
    const res = await getResource(target, path, { ...options, query: { limit: String(options.limit ?? PAGE_LIMIT), continue: continueToken } });
    if (res.status === 410 && continueToken !== undefined && !restarted) {
      options.trace?.('* continue token expired (410 Gone): listing the pods again from the start');
      restarted = true;
      continueToken = undefined;
      pods = [];
      continue;
    }
    if (res.status !== 200) throw resourceError(res, target, permission);
    const doc = parseJsonObject(res, 'a PodList');
    if ((doc.kind !== undefined && doc.kind !== 'PodList') || !Array.isArray(doc.items)) {
      throw new CheckError(`response from ${res.url.origin}${res.url.pathname} is JSON but not a PodList (${typeof doc.kind === 'string' ? `kind ${doc.kind}` : 'no items array'}); check that --url is the Kubernetes API server`);
    }
    for (const item of doc.items as unknown[]) if (item !== null && typeof item === 'object') pods.push(classifyPod(item as Pod, namespace));
    pages++;
    const meta = (doc.metadata ?? {}) as Record<string, unknown>;
    const next = typeof meta.continue === 'string' && meta.continue !== '' ? meta.continue : undefined;
    if (next === undefined) return { namespace, pods, pages };
    if (next === continueToken) throw new CheckError(`${res.url.origin}${res.url.pathname} returned the continue token it was given; the pod list would never end (a broken proxy or API server?)`);
    continueToken = next;
  }
}
