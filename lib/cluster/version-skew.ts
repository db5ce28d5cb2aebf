// Kubelets against the API server, by the version skew policy: a kubelet must not be newer
// than the API server, and may be older by at most two minors (three from Kubernetes 1.28 on).
// Minors are compared: a patch difference is no skew.
import type { Part } from '../plugin/part';
import { State } from '../plugin/state';
import { minorOf, parseKubeVersion, type KubeVersion } from './kube-version';

/** The minors a kubelet may lag behind an API server of this version, by the skew policy. */
export function supportedSkew(server: KubeVersion): number {
  return server.major === 1 && server.minor < 28 ? 2 : 3;
}

/** One node's kubelet, judged. */
export interface KubeletSkew extends Part {
  node: string;
  version?: KubeVersion;
  /** Minors behind the API server (negative: ahead). */
  behind?: number;
  text: string;
}

export interface SkewVerdict {
  kubelets: KubeletSkew[];
  /** Node names by the kubelet's minor (`v1.27`), the API server's first. */
  byMinor: Map<string, string[]>;
  /** Nodes whose kubelet has the API server's minor but another patch (said at -v). */
  patchDiffers: string[];
  maxSkew: number;
}

/** Judges each node's kubelet version against the API server's (`maxSkew` minors older is still fine). */
export function judgeSkew(server: KubeVersion, nodes: ReadonlyArray<{ name: string; kubeletVersion?: string }>, maxSkew = supportedSkew(server)): SkewVerdict {
  const byMinor = new Map<string, string[]>([[minorOf(server), []]]);
  const patchDiffers: string[] = [];
  const kubelets = nodes.map(({ name, kubeletVersion }): KubeletSkew => {
    const version = parseKubeVersion(kubeletVersion);
    if (version === undefined)
      // A figure the node does not give costs that figure, not the check.
      return {
        node: name,
        state: State.OK,
        text: `${name}: kubelet version ${kubeletVersion === undefined ? 'not reported' : `${JSON.stringify(kubeletVersion.slice(0, 40))} unreadable`}`,
      };
    const minor = minorOf(version);
    // One list per minor, grown in place: copying it per node made 50,000 nodes of one minor quadratic.
    const sameMinor = byMinor.get(minor);
    if (sameMinor) sameMinor.push(name);
    else byMinor.set(minor, [name]);
    // Minors count within a major only: a kubelet of another major (v0.19.3 against v1.27) is
    // outside the policy altogether, older or newer, and has no number of minors behind.
    if (version.major !== server.major) {
      const newer = version.major > server.major;
      return {
        node: name,
        version,
        state: newer ? State.CRITICAL : State.WARNING,
        text: `${name}: kubelet ${version.text} is of ${newer ? 'a newer' : 'an older'} major version than the API server ${server.text}`,
      };
    }
    const behind = server.minor - version.minor;
    if (behind < 0)
      return { node: name, version, behind, state: State.CRITICAL, text: `${name}: kubelet ${version.text} is newer than the API server ${server.text}` };
    if (behind > maxSkew)
      return {
        node: name,
        version,
        behind,
        state: State.WARNING,
        text: `${name}: kubelet ${version.text} is ${behind} minors behind the API server ${server.text} (at most ${maxSkew})`,
      };
    if (behind === 0 && version.patch !== server.patch) patchDiffers.push(`${name} ${version.text}`);
    return {
      node: name,
      version,
      behind,
      state: State.OK,
      text: `${name}: kubelet ${version.text}${behind > 0 ? `, ${behind} minor${behind === 1 ? '' : 's'} behind` : ''}`,
    };
  });
  return { kubelets, byMinor, patchDiffers, maxSkew };
}
