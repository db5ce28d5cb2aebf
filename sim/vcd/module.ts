// The cloud-director half of the simulator: login (CloudAPI, legacy /api/sessions, OAuth API
// tokens), sessions that expire, and the current/historic metrics of a set of VMs.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ParsedOptions } from '../../lib/plugin/options';
import { send } from '../faults';
import type { SimApi, SimModule } from '../module';
import { Stats } from '../server';
import { currentUsage, errorDocument, historicUsage, sessionDocument, type XmlStyle } from './documents';
import { scenarioFleet } from './fleet';
import { ALL_VERSIONS, answerQuery, parseVersionList, versionsDocument } from './query';
import { currentRefusal, vmRecordDocument } from './vm-records';

interface SimSession {
  auth: 'bearer' | 'legacy';
  expires: number;
}

const XML_TYPE = 'application/*+xml;version=';
const JSON_TYPE = 'application/*+json;version=';

/**
 * A legacy (/api/sessions) session token as servers wrote it: hex (the default); base64 with
 * `+`, `/` and `=` (vCD 5.x-9.x); or base64 sent only in `Set-Cookie: vcloud-token`.
 */
function legacyToken(style: string): string {
  if (style === 'hex') return randomBytes(16).toString('hex');
  // Always carries the three characters a careless client would mangle.
  return `${randomBytes(12).toString('base64').replace(/=+$/, '')}+/${randomBytes(10).toString('base64').replace(/=+$/, '')}=`;
}

function create(options: ParsedOptions, stateDir: string): SimApi {
  const stats = new Stats();
  const user = options['vcd-user'] as string;
  const org = options['vcd-org'] as string;
  const password = options['vcd-password'] as string;
  const ttlMs = (options['vcd-session-ttl'] as number) * 1000;
  const noCloudApi = options['vcd-no-cloudapi'] as boolean;
  const prefix = options['vcd-xml-prefix'] ? 'vcloud' : '';
  const fleet = scenarioFleet(options['vcd-scenario'] as string);
  const vms = new Map(fleet.vms.map((vm) => [vm.id, vm]));
  const versions = parseVersionList(options['vcd-versions'] as string);
  const supported = new Set(versions);
  const tokenStyle = options['vcd-legacy-token'] as string;
  const apiToken = randomBytes(24).toString('base64url');
  const passwordFile = join(stateDir, 'vcd-password');
  const apiTokenFile = join(stateDir, 'vcd-api-token');
  writeFileSync(passwordFile, password + '\n', { mode: 0o600 });
  writeFileSync(apiTokenFile, apiToken + '\n', { mode: 0o600 });
  const sessions = new Map<string, SimSession>();
  const isProvider = org.toLowerCase() === 'system';

  const styleOf = (req: IncomingMessage): XmlStyle => ({
    prefix,
    base: `${(req.socket as TLSSocket).encrypted ? 'https' : 'http'}://${req.headers.host ?? '127.0.0.1'}`,
  });
  const xmlError = (req: IncomingMessage, res: ServerResponse, status: number, minor: string, message: string) =>
    send(res, status, { 'content-type': 'application/vnd.vmware.vcloud.error+xml;version=34.0' }, errorDocument(styleOf(req), status, minor, message));
  const jsonError = (res: ServerResponse, status: number, minor: string, message: string) =>
    send(res, status, { 'content-type': 'application/json;version=34.0' }, JSON.stringify({ minorErrorCode: minor, message, stackTrace: null }));

  const newSession = (auth: SimSession['auth']): string => {
    const token = auth === 'bearer' ? `eyJhbGciOiJSUzI1NiJ9.${randomBytes(48).toString('base64url')}` : legacyToken(tokenStyle);
    sessions.set(token, { auth, expires: Date.now() + ttlMs });
    stats.bump('login');
    stats.bump(`login.${auth}`);
    return token;
  };
  const basicOk = (req: IncomingMessage): boolean => {
    const m = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
    return m !== null && Buffer.from(m[1], 'base64').toString('utf8') === `${user}@${org}:${password}`;
  };
  /** The session a request carries, if valid; an expired one is forgotten. */
  const sessionOf = (req: IncomingMessage): [string, SimSession] | undefined => {
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const legacy = req.headers['x-vcloud-authorization'] as string | undefined;
    const token = bearer ?? legacy;
    const s = token === undefined ? undefined : sessions.get(token);
    if (!token || !s || s.auth !== (bearer ? 'bearer' : 'legacy')) return undefined;
    if (s.expires < Date.now()) {
      sessions.delete(token);
      stats.bump('expired');
      return undefined;
    }
    return [token, s];
  };

  async function handler(req: IncomingMessage, res: ServerResponse, url: URL, body: Buffer): Promise<void> {
    const path = url.pathname;
    const method = req.method ?? 'GET';

    // CloudAPI login (vCD 9.7+): the access token comes back in a response header.
    if (method === 'POST' && (path === '/cloudapi/1.0.0/sessions' || path === '/cloudapi/1.0.0/sessions/provider') && !noCloudApi) {
      const provider = path.endsWith('/provider');
      const asked = /^application\/json;\s*version=(\S+)$/.exec(req.headers.accept ?? '')?.[1];
      if (!asked) return jsonError(res, 406, 'NOT_ACCEPTABLE', 'The request has invalid accept header: expected application/json;version=<version>');
      if (!supported.has(asked)) return jsonError(res, 406, 'NOT_ACCEPTABLE', `The request has invalid accept header: Invalid API version requested. Supported versions: ${versions.join(', ')}`);
      if (!basicOk(req) || provider !== isProvider) {
        stats.bump('login-failed');
        return jsonError(res, 401, 'UNAUTHORIZED', 'Invalid credentials');
      }
      const token = newSession('bearer');
      const doc = { id: `urn:vcloud:session:${randomBytes(8).toString('hex')}`, user: { name: user }, org: { name: org }, roles: ['vApp Author'] };
      return send(res, 200, { 'content-type': 'application/json;version=34.0', 'x-vmware-vcloud-access-token': token, 'x-vmware-vcloud-token-type': 'Bearer' }, JSON.stringify(doc));
    }
    // The XML API's own login (all versions): token in x-vcloud-authorization.
    if (method === 'POST' && path === '/api/sessions') {
      if (!basicOk(req)) {
        stats.bump('login-failed');
        return xmlError(req, res, 401, 'UNAUTHORIZED', 'Invalid credentials');
      }
      const token = newSession('legacy');
      return send(res, 200, legacySessionHeaders(token), sessionDocument(styleOf(req), user, org));
    }
    // OAuth: an API (refresh) token exchanged for a bearer access token (vCD 10.3.1+).
    const oauth = /^\/oauth\/(?:tenant\/([^/]+)|(provider))\/token$/.exec(path);
    if (method === 'POST' && oauth) {
      const form = new URLSearchParams(body.toString('utf8'));
      const forOrg = oauth[2] ? 'System' : decodeURIComponent(oauth[1]);
      if (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== apiToken || forOrg.toLowerCase() !== org.toLowerCase()) {
        stats.bump('login-failed');
        return send(res, 400, { 'content-type': 'application/json' }, JSON.stringify({ error: 'invalid_grant', error_description: 'Invalid refresh token' }));
      }
      const token = newSession('bearer');
      return send(res, 200, { 'content-type': 'application/json' }, JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: ttlMs / 1000, refresh_token: null }));
    }
    // Logout.
    if (method === 'DELETE' && ((path === '/cloudapi/1.0.0/sessions/current' && !noCloudApi) || path === '/api/session')) {
      const s = sessionOf(req);
      if (!s) return path.startsWith('/api') ? xmlError(req, res, 401, 'UNAUTHORIZED', 'This operation is denied.') : jsonError(res, 401, 'UNAUTHORIZED', 'Unauthorized');
      sessions.delete(s[0]);
      stats.bump('logout');
      return send(res, 204, {}, '');
    }

    if (method === 'GET' && path === '/api/versions') {
      // No login needed, as on real servers: clients ask before they log in.
      stats.bump('versions');
      return send(res, 200, { 'content-type': 'application/vnd.vmware.vcloud.versions+xml' }, versionsDocument(styleOf(req).base, versions));
    }
    if (method === 'GET' && path === '/api/query') {
      const accept = req.headers.accept ?? '';
      const json = accept.startsWith(JSON_TYPE);
      const version = accept.startsWith(XML_TYPE) ? accept.slice(XML_TYPE.length).trim() : json ? accept.slice(JSON_TYPE.length).trim() : undefined;
      if (!version || !supported.has(version)) return refuseVersion(req, res);
      if (!sessionOf(req)) {
        stats.bump('unauthorized');
        return xmlError(req, res, 401, 'UNAUTHORIZED', 'This operation is denied.');
      }
      return answerQuery(res, url, styleOf(req).base, fleet.records, json, version, (n) => stats.bump(n));
    }

    const metrics = /^\/api\/vApp\/([^/]+)\/metrics\/(current|historic)$/.exec(path);
    if (method === 'GET' && metrics) {
      const version = (req.headers.accept ?? '').startsWith(XML_TYPE) ? (req.headers.accept as string).slice(XML_TYPE.length).trim() : undefined;
      if (!version || !supported.has(version)) return refuseVersion(req, res);
      if (!sessionOf(req)) {
        stats.bump('unauthorized');
        return xmlError(req, res, 401, 'UNAUTHORIZED', 'This operation is denied.');
      }
      const vm = vms.get(metrics[1].toLowerCase());
      if (!vm) {
        // vCD does not reveal whether an id exists: unknown and forbidden look the same.
        return xmlError(req, res, 403, 'ACCESS_TO_RESOURCE_IS_FORBIDDEN', `Either you need some or all of the following rights [Organization vDC: View] to perform operations [VAPP_VM_VIEW] for com.vmware.vcloud.entity.vm:${metrics[1].replace(/^vm-/, '')} or the target entity is invalid.`);
      }
      stats.bump(`metrics.${metrics[2]}`);
      if (metrics[2] === 'current') {
        const refusal = currentRefusal(vm);
        if (refusal) return xmlError(req, res, 400, refusal.minor, refusal.message);
        return send(res, 200, { 'content-type': 'application/vnd.vmware.vcloud.metrics.currentusagespec+xml;version=34.0' }, currentUsage(styleOf(req), vm, Date.now()));
      }
      return send(res, 200, { 'content-type': 'application/vnd.vmware.vcloud.metrics.historicusagespec+xml;version=34.0' }, historicUsage(styleOf(req), vm, Date.now()));
    }
    // The VM's own record: its power state.
    const record = /^\/api\/vApp\/(vm-[^/]+)$/.exec(path);
    if (method === 'GET' && record) {
      if (!sessionOf(req)) return xmlError(req, res, 401, 'UNAUTHORIZED', 'This operation is denied.');
      const vm = vms.get(record[1].toLowerCase());
      if (!vm) return xmlError(req, res, 403, 'ACCESS_TO_RESOURCE_IS_FORBIDDEN', `Either you need some or all of the following rights [Organization vDC: View] to perform operations [VAPP_VM_VIEW] for com.vmware.vcloud.entity.vm:${record[1].slice(3)} or the target entity is invalid.`);
      stats.bump('vm-record');
      return send(res, 200, { 'content-type': 'application/vnd.vmware.vcloud.vm+xml;version=34.0' }, vmRecordDocument(styleOf(req).base, prefix, vm));
    }
    if (path.startsWith('/cloudapi/')) return jsonError(res, 404, 'NOT_FOUND', `No resource found for ${path}`);
    return xmlError(req, res, 404, 'RESOURCE_NOT_FOUND', `Resource not found: ${path}`);
  }

  /** The answer of a server asked for a version it does not speak. */
  function refuseVersion(req: IncomingMessage, res: ServerResponse): void {
    stats.bump('refused-version');
    return xmlError(req, res, 406, 'NOT_ACCEPTABLE', `The request has invalid accept header: Invalid API version requested. Supported versions: ${versions.join(', ')}`);
  }
  /** Legacy login headers: the token in x-vcloud-authorization, or only in the vcloud-token cookie. */
  function legacySessionHeaders(token: string): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/vnd.vmware.vcloud.session+xml;version=34.0' };
    if (tokenStyle === 'cookie') headers['set-cookie'] = `vcloud-token=${token}; Secure; HttpOnly; Path=/`;
    else headers['x-vcloud-authorization'] = token;
    return headers;
  }

  // The fleet scenario has 2,000 VMs: name the roles of a few, not all.
  const vmList = [...vms.values()].slice(0, 12).map((vm) => `${vm.role}=${vm.id}`).join(' ') + (vms.size > 12 ? ` (and ${vms.size - 12} more)` : '');
  const healthyVm = ([...vms.values()].find((vm) => vm.role === 'healthy') ?? [...vms.values()].find((vm) => vm.power === 'on'))?.id ?? '';
  return {
    handler,
    stats,
    // healthyVm: the one VM scripts (bench, quick tries) need without parsing the list.
    info: { user, org, passwordFile, apiTokenFile, scenario: options['vcd-scenario'] as string, healthyVm, vms: vmList },
  };
}

/** The `vcd` simulator module (cloudchecks-sim --vcd-*). */
export const VCD_MODULE: SimModule = {
  name: 'vcd',
  description: 'cloud-director API',
  options: [
    { long: 'vcd-scenario', type: 'string', arg: 'NAME', default: 'default', choices: ['default', 'healthy', 'fleet'], description: "VMs served: default has a healthy, a busy (~85% cpu), a full-disk, a powered-off, a stale (history stopped 1h ago), a disk-less and a no-tools VM; healthy only calm ones; fleet 2,000 VMs in 40 vApps (two named 'twin' in vapp-01 and vapp-02, 'Web & DB 01' in 'Sales & Marketing', a template VM). Unknown ids get 403." },
    { long: 'vcd-versions', type: 'string', arg: 'LIST', default: ALL_VERSIONS.join(','), description: 'API versions served (GET /api/versions), e.g. 37.0,38.0,38.1: any other version in an Accept header gets 406.' },
    { long: 'vcd-legacy-token', type: 'string', arg: 'STYLE', default: 'hex', choices: ['hex', 'base64', 'cookie'], description: 'Token of POST /api/sessions: hex, base64 (with + / =), or base64 sent only as Set-Cookie: vcloud-token.' },
    { long: 'vcd-user', type: 'string', arg: 'NAME', default: 'monitor', description: 'User that may log in.' },
    { long: 'vcd-org', type: 'string', arg: 'ORG', default: 'acme', description: 'Org of the user (System: provider login).' },
    { long: 'vcd-password', type: 'string', arg: 'TEXT', default: 'Sim-vcd-Passw0rd', description: 'Password of the user; written to <state-dir>/vcd-password (mode 0600).' },
    { long: 'vcd-no-cloudapi', type: 'boolean', description: 'Behave like vCD before 9.7: no CloudAPI session endpoint (404), only POST /api/sessions.' },
    { long: 'vcd-session-ttl', type: 'number', arg: 'SECONDS', default: 1800, description: 'Sessions expire this long after login (then 401).' },
    { long: 'vcd-xml-prefix', type: 'boolean', description: 'Write documents with a vcloud: namespace prefix instead of the default namespace.' },
  ],
  create,
};
