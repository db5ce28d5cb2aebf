import type { HttpResponse } from '../http/request';
import { CheckError } from '../plugin/errors';
import { boundedExcerpt, plainTextLine } from '../plugin/server-text';

// How the cluster API's refusals are worded: the status, the server's own message, and the
// fix (the permission a 403 lacks, the option a 401 or 404 points at).

/** Where a target's credential came from and what it is: what the fix of a 401 or 403 names. */
export interface CredentialSource {
  /** Where the credential came from, for the fix of a 401 (e.g. `--token-file /etc/x`). */
  tokenSource: string;
  /** What authenticates: a bearer token (the default) or a client certificate. */
  credential?: 'token' | 'client certificate';
}

/** An HTTP status the check cannot go past; `status` lets a caller renew a credential on 401. */
export class HttpStatusError extends CheckError {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Where an answer came from, for messages: origin and path, without the query. */
export function endpoint(url: URL): string {
  return url.origin + url.pathname;
}

/** The `message` of a Kubernetes `Status` body, or the first line of a short text body. */
export function serverMessage(res: HttpResponse): string | undefined {
  const type = String(res.headers['content-type'] ?? '');
  if (res.body.length === 0 || res.body.length > 65536) return undefined;
  const text = res.body.toString('utf8').trim();
  if (text.startsWith('{')) {
    try {
      const doc = JSON.parse(text) as { message?: unknown };
      return typeof doc?.message === 'string' && doc.message.trim() !== '' ? boundedExcerpt(doc.message) : undefined;
    } catch {
      return undefined;
    }
  }
  return plainTextLine(res.body, type);
}

/** A user name as RBAC spells them (`system:serviceaccount:ns:name`, `alice@example.com`): safe in a command line. */
const ACCOUNT = /^[A-Za-z0-9][A-Za-z0-9:@._-]{0,252}$/;

/**
 * The fix of a 403: the command that grants cluster-reader to the account the server named in
 * its message (`User "system:serviceaccount:ns:name" cannot …`), or to a placeholder when it
 * named none. A request the server saw as anonymous lacks a credential, not a role.
 */
function grantFix(message: string | undefined, target: CredentialSource, which = ''): string {
  const named = message === undefined ? undefined : /\bUser "([^"]{1,253})" cannot\b/.exec(message)?.[1];
  if (named === 'system:anonymous') return `the server saw no credential (system:anonymous): check ${target.tokenSource}`;
  const account = named !== undefined && ACCOUNT.test(named) ? named : 'system:serviceaccount:<namespace>:<account>';
  return `grant it the cluster-reader role${which} (oc adm policy add-cluster-role-to-user cluster-reader ${account})`;
}

/** What a request needs the account to be allowed, named in the fix of a 403. */
export interface Permission {
  verb: 'get' | 'list';
  /** Plural resource name, e.g. `pods`, `configmaps`, `clusteroperators`. */
  resource: string;
  /** API group; empty or absent for the core group. */
  group?: string;
  /** Absent for cluster-scoped resources. */
  namespace?: string;
  /** The object's name, for a get. */
  name?: string;
}

/** `get clusteroperators.config.openshift.io "monitoring"`, `list pods in namespace x`: the words of RBAC. */
export function describePermission(p: Permission): string {
  const resource = p.group ? `${p.resource}.${p.group}` : p.resource;
  return `${p.verb} ${resource}${p.name ? ` "${p.name}"` : ''}${p.namespace ? ` in namespace ${p.namespace}` : ' (cluster scope)'}`;
}

/**
 * Turns a non-200 answer into a CheckError naming the cause and the fix. `permission` is what
 * the request needed (a 403 names it and the role that grants it); without it, the request
 * was the node list, whose words these are.
 */
export function httpError(res: HttpResponse, target: CredentialSource, permission?: Permission): CheckError {
  const message = serverMessage(res);
  const said = message ? ` (server says: ${message})` : '';
  const where = `HTTP ${res.status} from ${endpoint(res.url)}`;
  const s = res.status;
  let text: string;
  if (s === 401) text = `${where}: ${target.credential ?? 'token'} rejected (expired or revoked?)${said}; check ${target.tokenSource}`;
  else if (s === 403)
    text = permission
      ? `${where}: the account may not ${describePermission(permission)}${said}; ${grantFix(message, target, ', which may read this')}`
      : `${where}: the account may not list nodes${said}; ${grantFix(message, target)}`;
  else if (s === 404)
    text = `${where}: not a Kubernetes API at that URL${said}; check --url/-H/-p point at the API server (e.g. https://api.cluster.example.com:6443), not the web console`;
  else if (s === 406) text = `${where}: the server will not send JSON${said}; check --url points at the Kubernetes API server`;
  else if (s === 410)
    text = `${where}: the ${permission ? permission.resource : 'node'} list changed faster than it could be paged (continue token expired twice)${said}; retry`;
  // Only the node list sends -l/--selector.
  else if (s === 400) text = `${where}: request refused${said}; ${permission ? 'check that --url is the Kubernetes API server' : 'check -l/--selector'}`;
  else if (s === 429) text = `${where}: rate limited by the API server${said}; check less often or raise the account's priority`;
  else if (s >= 500) text = `${where}: API server error${said}; the control plane is unhealthy or overloaded, retry later`;
  else if (s >= 300 && s < 400)
    text = `${where}: redirected to ${String(res.headers.location ?? '?')}${said}; use the API server URL itself (a login proxy or the web console redirects)`;
  else text = `${where}: unexpected status${said}`;
  return new HttpStatusError(text, s);
}
