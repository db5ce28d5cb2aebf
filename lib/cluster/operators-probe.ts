// Reads what check_cluster_operators judges: the ClusterOperator list and the ClusterVersion.
import { CheckError } from '../plugin/errors';
import { httpError, serverMessage } from './api-error';
import { getJsonObject, getResource, parseJsonObject, type ClusterTarget, type GetOptions } from './client';
import { readClusterOperatorList, type ClusterOperatorStatus } from './cluster-operator';
import { readClusterVersion, type ClusterVersionStatus } from './cluster-version';
import { ShapeError } from './shape-error';

const GROUP = 'config.openshift.io';
export const OPERATORS_PATH = `/apis/${GROUP}/v1/clusteroperators`;
export const VERSION_PATH = `/apis/${GROUP}/v1/clusterversions/version`;
/** Far above any cluster: OpenShift 4 runs some 35 cluster operators, with add-ons a few more. */
export const DEFAULT_MAX_OPERATORS = 1000;

/** The operators and the version; `version` is undefined when the API has no ClusterVersion (404). */
export interface OperatorsProbe {
  operators: ClusterOperatorStatus[];
  version?: ClusterVersionStatus;
}

function shaped<T>(target: ClusterTarget, path: string, what: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (!(e instanceof ShapeError)) throw e;
    throw new CheckError(
      `unexpected response from ${target.url.origin}${path}: ${e.message} (not ${what} as OpenShift sends it); check that --url is the API server of an OpenShift 4 cluster`,
    );
  }
}

/**
 * GETs both resources together (one request each: the list is a few dozen operators, so it is
 * not paged, and it is bounded by --max-bytes and --max-operators). 404 on both is not an
 * OpenShift 4 cluster; `withVersion: false` (one operator asked for) skips the ClusterVersion.
 */
export async function probeOperators(target: ClusterTarget, options: GetOptions & { maxOperators: number; withVersion: boolean }): Promise<OperatorsProbe> {
  const [listed, version] = await Promise.all([
    getResource(target, OPERATORS_PATH, options),
    options.withVersion
      ? getJsonObject(target, VERSION_PATH, { verb: 'get', resource: 'clusterversions', group: GROUP, name: 'version' }, 'a ClusterVersion', options)
      : Promise.resolve(undefined),
  ]);
  if (listed.status === 404) {
    const message = serverMessage(listed);
    const said = message ? ` (server says: ${message})` : '';
    const both = options.withVersion && version === undefined;
    throw new CheckError(
      both
        ? `${target.url.origin} has no ClusterOperators and no ClusterVersion (HTTP 404 for both${said}): not an OpenShift 4 cluster (OpenShift 3 and plain Kubernetes have neither); use check_nodes there, or check --url`
        : `${target.url.origin} has no ClusterOperators (HTTP 404 for ${OPERATORS_PATH}${said}): not an OpenShift 4 cluster, or its config.openshift.io API is not served; check --url`,
    );
  }
  if (listed.status !== 200) throw httpError(listed, target, { verb: 'list', resource: 'clusteroperators', group: GROUP });
  const list = parseJsonObject(listed, 'a ClusterOperatorList');
  const operators = shaped(target, OPERATORS_PATH, 'a ClusterOperatorList', () => readClusterOperatorList(list, options.maxOperators));
  return { operators, version: version === undefined ? undefined : shaped(target, VERSION_PATH, 'the ClusterVersion', () => readClusterVersion(version)) };
}
