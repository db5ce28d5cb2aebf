// The API server's own health endpoints, /readyz and /livez with ?verbose: one line per
// check (`[+]etcd ok`, `[-]etcd failed: reason withheld`, `[+]etcd excluded: ok`), then
// `readyz check passed` or `... failed`; HTTP 200 when every check passes, 500 when one fails.
import { checkDeadline } from '../plugin/deadline';
import { boundedExcerpt } from '../plugin/server-text';

/** One named check of /readyz or /livez. */
export interface HealthCheck {
  /** As the server names it: `etcd`, `poststarthook/rbac/bootstrap-roles`. */
  name: string;
  ok: boolean;
  /** `excluded: ok`: the caller asked the server to skip it. */
  excluded?: boolean;
  /** What follows `failed:` (the server withholds the reason unless asked at a higher log level). */
  reason?: string;
}

/** What one endpoint said. */
export interface HealthReport {
  checks: HealthCheck[];
  failed: HealthCheck[];
  /** Checks listed beyond MAX_CHECKS: counted, not kept. */
  more: number;
  /** The closing line (`readyz check passed`), or the first other line when the body is no list. */
  verdict?: string;
}

/** A real API server lists some 50 checks; a body of more is cut here, and the rest counted. */
export const MAX_CHECKS = 500;
/** A check's line is a path of a few words and a short reason; longer lines are read this far. */
const MAX_LINE = 2048;
const LINE = /^\[([+-])\](\S{1,512}) (ok|excluded: ok|failed(?::\s?(.*))?)$/;

/**
 * Reads the verbose body of /readyz or /livez. Only the first MAX_CHECKS check lines are
 * kept (failures among the rest are still counted as failed), so a body of megabytes costs
 * one pass over its lines and no more memory than a real one.
 */
export function parseHealthChecks(body: string): HealthReport {
  const report: HealthReport = { checks: [], failed: [], more: 0 };
  let start = 0;
  let lines = 0;
  while (start < body.length) {
    let end = body.indexOf('\n', start);
    if (end < 0) end = body.length;
    const line = body.slice(start, Math.min(end, start + MAX_LINE)).replace(/\r$/, '');
    start = end + 1;
    if ((++lines & 8191) === 0) checkDeadline('reading the health checks');
    // A line cut at MAX_LINE still names its check: only a failure's reason runs that long.
    const m = LINE.exec(line);
    if (!m) {
      if (report.verdict === undefined && line.trim() !== '') report.verdict = boundedExcerpt(line, 120);
      continue;
    }
    const ok = m[1] === '+' && m[3] !== undefined && !m[3].startsWith('failed');
    const check: HealthCheck = { name: boundedExcerpt(m[2], 200), ok };
    if (m[3] === 'excluded: ok') check.excluded = true;
    if (!ok && m[4] !== undefined && m[4].trim() !== '') check.reason = boundedExcerpt(m[4], 200);
    if (report.checks.length >= MAX_CHECKS) {
      report.more++;
      if (!ok && report.failed.length < MAX_CHECKS) report.failed.push(check);
      continue;
    }
    report.checks.push(check);
    if (!ok) report.failed.push(check);
  }
  // The closing line is the last one, not the first unknown one, when the body is a list.
  const tail = body.slice(Math.max(0, body.length - MAX_LINE)).trimEnd();
  const last = tail.slice(tail.lastIndexOf('\n') + 1).replace(/\r$/, '');
  if (report.checks.length > 0 && last !== '' && !LINE.test(last)) report.verdict = boundedExcerpt(last, 120);
  return report;
}
