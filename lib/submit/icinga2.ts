// Passive check results for the Icinga 2 REST API: one POST /v1/actions/process-check-result
// per service, a few at once over the keep-alive connections of the request layer.
import { httpRequest, type HttpResponse, type TlsSettings } from '../http/request';
import { CheckError } from '../plugin/errors';
import { boundedExcerpt } from '../plugin/server-text';
import type { PassiveResult } from './passive-result';
import { forEachAtMost } from './worker-pool';

/** Where and as whom results are posted. */
export interface IcingaTarget {
  /** The API's base URL, e.g. https://localhost:5665. */
  url: URL;
  user: string;
  password: string;
  tls: TlsSettings;
  /** Shown as the result's check source in Icinga (default: the API's answer, the endpoint). */
  checkSource?: string;
}

/** What the API did with the results. */
export interface SubmitReport {
  submitted: number;
  /** Results whose object Icinga does not have (or the user may not see): their host and service. */
  missing: MissingService[];
}

/** A result's object that the engine does not have. */
export interface MissingService {
  host: string;
  service: string;
}

/** The permissions the API user needs, as its ApiUser object lists them. */
export const ICINGA_PERMISSIONS = '[ "actions/process-check-result", "objects/query/Host", "objects/query/Service" ]';

/** At most this many requests at once: the request layer keeps four connections per server. */
export const ICINGA_CONCURRENCY = 4;

/** An answer of the API is a few hundred bytes; more is not the API. */
const MAX_ANSWER_BYTES = 256 * 1024;

/** The body of one process-check-result request. The filter takes the names as variables, never as DSL text. */
export function processCheckResultBody(result: PassiveResult, checkSource?: string): string {
  return JSON.stringify({
    type: 'Service',
    filter: 'host.name == cc_host && service.name == cc_service',
    filter_vars: { cc_host: result.host, cc_service: result.service },
    exit_status: result.state,
    plugin_output: [result.output, ...result.longOutput].join('\n'),
    performance_data: result.perfdata,
    ...(checkSource !== undefined ? { check_source: checkSource } : {}),
  });
}

/**
 * Posts every result; resolves with how many Icinga took and which objects it does not have.
 * Refused credentials or permissions, server errors and network failures throw CheckErrors
 * naming cause and fix; `signal` (the run's timeout) aborts what is still running.
 */
export async function submitToIcinga(
  results: readonly PassiveResult[],
  target: IcingaTarget,
  options: { signal?: AbortSignal; trace?: (line: string) => void; concurrency?: number } = {},
): Promise<SubmitReport> {
  const report: SubmitReport = { submitted: 0, missing: [] };
  const url = new URL('/v1/actions/process-check-result', target.url);
  const authorization = `Basic ${Buffer.from(`${target.user}:${target.password}`).toString('base64')}`;
  await forEachAtMost(results, options.concurrency ?? ICINGA_CONCURRENCY, async (result) => {
    let response: HttpResponse;
    try {
      response = await httpRequest({
        method: 'POST',
        url,
        headers: { accept: 'application/json', 'content-type': 'application/json', authorization },
        body: processCheckResultBody(result, target.checkSource),
        tls: target.tls,
        maxBytes: MAX_ANSWER_BYTES,
        signal: options.signal,
        trace: options.trace,
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const message = error instanceof CheckError ? error.message : String(error);
      throw new CheckError(`cannot submit to the Icinga 2 API: ${message} (--icinga2-url ${target.url.origin})`, { cause: error });
    }
    if (judgeAnswer(response, result, target) === 'missing') report.missing.push({ host: result.host, service: result.service });
    else report.submitted++;
  });
  return report;
}

/** An answer of the API as read once: its `status` words and first result's code, when it has them. */
interface ApiAnswer {
  status?: unknown;
  results?: Array<{ status?: unknown; code?: unknown }>;
}

/** The API's own words from an error or result body (`status`), bounded, or undefined. */
function apiStatus(doc: ApiAnswer | undefined): string | undefined {
  const status = doc?.results?.[0]?.status ?? doc?.status;
  return typeof status === 'string' ? boundedExcerpt(status, 200) : undefined;
}

function judgeAnswer(response: HttpResponse, result: PassiveResult, target: IcingaTarget): 'ok' | 'missing' {
  const where = `Icinga 2 API ${target.url.origin}`;
  const doc = safeJson(response.body);
  const said = apiStatus(doc);
  const quoted = said ? `: "${said}"` : '';
  if (response.status === 401)
    throw new CheckError(`${where} rejected user ${target.user} (HTTP 401); check --icinga2-user and the password in --icinga2-password-file`);
  if (response.status === 403)
    throw new CheckError(
      `${where}: user ${target.user} may not submit check results (HTTP 403${quoted}); give its ApiUser permissions = ${ICINGA_PERMISSIONS}`,
    );
  // Also what a user without read access to the object gets: it cannot see it.
  if (response.status === 404) return 'missing';
  // A filter that matches no object (a VM created since the last discovery): Icinga 2.13 and
  // 2.14 answer HTTP 500 with an empty list of results. It costs this result only.
  if (response.status === 500 && Array.isArray(doc?.results) && doc.results.length === 0) return 'missing';
  // A result the object refused (passive checks disabled) comes back as a result code, the
  // HTTP status then 500 when no object took it.
  const code = doc?.results?.[0]?.code;
  if (typeof code === 'number' && code !== 200) {
    throw new CheckError(
      `${where} did not take the result for ${result.host}!${result.service} (code ${code}${quoted}); let the service accept passive results (enable_passive_checks = true, as contrib/icinga2/vm-fleet.conf does)`,
    );
  }
  if (response.status === 200) return 'ok';
  throw new CheckError(`${where} answered HTTP ${response.status} to process-check-result${quoted}; check the Icinga 2 log (journalctl -u icinga2)`);
}

function safeJson(body: Buffer): ApiAnswer | undefined {
  try {
    const doc = JSON.parse(body.toString('utf8')) as unknown;
    return typeof doc === 'object' && doc !== null ? (doc as ApiAnswer) : undefined;
  } catch {
    return undefined;
  }
}
