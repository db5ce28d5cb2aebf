// Reads what check_cluster_monitoring judges: the monitoring ClusterOperator, the ConfigMap
// with enableUserWorkload, and the pods of the platform and workload stacks.
import { checkDeadline } from '../plugin/deadline';
import { CheckError } from '../plugin/errors';
import { boundedExcerpt } from '../plugin/server-text';
import { httpError } from './api-error';
import { getJsonObject, getResource, PAGE_LIMIT, parseJsonObject, type ClusterTarget, type GetOptions } from './client';
import { judgeClusterOperator, readClusterOperator, type OperatorHealth, type ClusterOperatorStatus } from './cluster-operator';
import { MONITORING_CONFIGMAP, readMonitoringConfig, type MonitoringConfig } from './monitoring-config';
import { classifyPod, readPod, type Pod, type PodHealth } from './pod-health';
import { jsonKind, ShapeError } from './shape-error';

export const OPERATOR_NAME = 'monitoring';

/** The monitoring ClusterOperator and its verdict; undefined when the API has none (404). */
export async function probeClusterOperator(
  target: ClusterTarget,
  options: GetOptions,
): Promise<{ operator: ClusterOperatorStatus; health: OperatorHealth } | undefined> {
  const path = `/apis/config.openshift.io/v1/clusteroperators/${OPERATOR_NAME}`;
  const doc = await getJsonObject(
    target,
    path,
    { verb: 'get', resource: 'clusteroperators', group: 'config.openshift.io', name: OPERATOR_NAME },
    'a ClusterOperator',
    options,
  );
  if (doc === undefined) return undefined;
  let operator: ClusterOperatorStatus;
  try {
    operator = readClusterOperator(doc);
  } catch (e) {
    if (!(e instanceof ShapeError)) throw e;
    throw new CheckError(
      `unexpected response from ${target.url.origin}${path}: ${e.message} (not the ClusterOperator ${OPERATOR_NAME} as OpenShift sends it); check that --url is the API server of an OpenShift 4 cluster`,
    );
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

/** Far above any monitoring namespace (a large cluster's openshift-monitoring runs a few hundred pods, node-exporter being one per node). */
export const DEFAULT_MAX_PODS = 20_000;

/**
 * Lists a namespace's pods page by page (`limit`/`continue`, each page bounded by
 * --max-bytes) and keeps only each pod's verdict. A continue token that expired (410 Gone)
 * restarts the list once, as for the node list. More than `maxPods` pods, or more pages
 * than they fill (with slack for short pages), is refused: a server that never ends the list
 * cannot hold the check until -t. An item that is not shaped like a Pod is refused, naming it.
 */
export async function listPods(target: ClusterTarget, namespace: string, options: GetOptions & { limit?: number; maxPods?: number }): Promise<PodList> {
  const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`;
  const permission = { verb: 'list', resource: 'pods', namespace } as const;
  const limit = options.limit ?? PAGE_LIMIT;
  const maxPods = options.maxPods ?? DEFAULT_MAX_PODS;
  const maxPages = Math.ceil(maxPods / limit) * 2 + 10;
  let pods: PodHealth[] = [];
  let continueToken: string | undefined;
  let pages = 0;
  let restarted = false;
  for (;;) {
    const res = await getResource(target, path, { ...options, query: { limit: String(limit), continue: continueToken } });
    if (res.status === 410 && continueToken !== undefined && !restarted) {
      options.trace?.('* continue token expired (410 Gone): listing the pods again from the start');
      restarted = true;
      continueToken = undefined;
      pods = [];
      continue;
    }
    if (res.status !== 200) throw httpError(res, target, permission);
    const where = `${res.url.origin}${res.url.pathname}`;
    if (pages >= maxPages)
      throw new CheckError(
        `${where} sent more than ${maxPages} pages of pods (${pods.length} pods) and the list still goes on; a broken proxy or API server? (raise --max-pods if the namespace really holds that many)`,
      );
    const doc = parseJsonObject(res, 'a PodList');
    if ((doc.kind !== undefined && doc.kind !== 'PodList') || !Array.isArray(doc.items)) {
      const why =
        typeof doc.kind === 'string' ? `kind ${boundedExcerpt(doc.kind, 60)}` : doc.kind !== undefined ? `kind is ${jsonKind(doc.kind)}` : 'no items array';
      throw new CheckError(`response from ${where} is JSON but not a PodList (${why}); check that --url is the Kubernetes API server`);
    }
    const items = doc.items as unknown[];
    for (let i = 0; i < items.length; i++) {
      if (pods.length >= maxPods)
        throw new CheckError(`${where} listed more than ${maxPods} pods in namespace ${namespace}; raise --max-pods if it really holds that many`);
      let pod: Pod;
      try {
        pod = readPod(items[i], `items[${i}]`);
      } catch (e) {
        if (!(e instanceof ShapeError)) throw e;
        throw new CheckError(
          `unexpected response from ${where}: ${e.message} (not a pod as the Kubernetes API sends it); check that --url is the API server and that nothing in between rewrites its answers`,
        );
      }
      pods.push(classifyPod(pod, namespace));
      // Reading a page is synchronous: let -t interrupt one that takes long.
      if ((i & 4095) === 4095) checkDeadline('reading the pod list');
    }
    pages++;
    const meta = isObject(doc.metadata) ? doc.metadata : {};
    if (meta.continue !== undefined && meta.continue !== null && typeof meta.continue !== 'string')
      throw new CheckError(
        `unexpected response from ${where}: metadata.continue is ${jsonKind(meta.continue)}, not a string; check that --url is the API server`,
      );
    const next = typeof meta.continue === 'string' && meta.continue !== '' ? meta.continue : undefined;
    if (next === undefined) return { namespace, pods, pages };
    if (next === continueToken)
      throw new CheckError(`${where} returned the continue token it was given; the pod list would never end (a broken proxy or API server?)`);
    continueToken = next;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
