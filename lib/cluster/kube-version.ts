// Kubernetes versions as servers and kubelets report them: `v1.30.4`, OpenShift's
// `v1.33.5+abc123`, EKS's `v1.29.3-eks-adc7111`, GKE's `v1.30.4-gke.1348000`, k3s's
// `v1.27.10+k3s1`. What follows the patch number is the vendor's build: v1.33.5+abc123 is v1.33.5.
import { boundedExcerpt } from '../plugin/server-text';
import { httpError, serverMessage } from './api-error';
import { getResource, parseJsonObject, type ClusterTarget, type GetOptions } from './client';

/** A version's numbers and the text it came from. */
export interface KubeVersion {
  text: string;
  major: number;
  minor: number;
  patch: number;
}

const VERSION = /^v?(\d{1,4})\.(\d{1,4})\.(\d{1,6})(?:[-+.][0-9A-Za-z.+_-]{0,200})?$/;

/** The numbers of a version text, or undefined when it is not one (a kubelet may report anything). */
export function parseKubeVersion(text: unknown): KubeVersion | undefined {
  if (typeof text !== 'string') return undefined;
  const m = VERSION.exec(text.trim());
  if (!m) return undefined;
  return { text: boundedExcerpt(text.trim(), 80), major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) };
}

/** `v1.33` of a version: what skew is measured in. */
export function minorOf(v: KubeVersion): string {
  return `v${v.major}.${v.minor}`;
}

/**
 * The API server's version from `GET /version`, or undefined when the account may not read it
 * (403) or the server does not say it (404, no gitVersion): the version is one figure, not the check.
 */
export async function readServerVersion(target: ClusterTarget, options: GetOptions): Promise<KubeVersion | undefined> {
  const res = await getResource(target, '/version', options);
  if (res.status === 403 || res.status === 404) {
    options.trace?.(`* HTTP ${res.status} for /version: ${serverMessage(res) ?? 'no message'}`);
    return undefined;
  }
  if (res.status !== 200) throw httpError(res, target, { verb: 'get', resource: 'version' });
  return parseKubeVersion(parseJsonObject(res, 'a version document').gitVersion);
}
