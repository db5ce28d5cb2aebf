// XML documents as vCD writes them (CurrentUsage, HistoricUsage, Error, Session), with or
// without a namespace prefix.
import type { UsageFilter } from './usage-spec';
import { expectedIntervalAttribute, futureSamples, intervalOf, metricNames, metricValue, sampleOffsetMs, type SimVm } from './vms';

const NS = 'http://www.vmware.com/vcloud/v1.5';
const HISTORY_SECONDS = 24 * 3600;
/** vCD publishes a sample some seconds after its interval ends. */
const PUBLISH_LAG_MS = 20_000;

export interface XmlStyle {
  /** `vcloud` gives <vcloud:CurrentUsage xmlns:vcloud=...>; '' the default namespace. */
  prefix: string;
  base: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

function open(style: XmlStyle, root: string): string {
  const p = style.prefix ? `${style.prefix}:` : '';
  const xmlns = style.prefix ? `xmlns:${style.prefix}` : 'xmlns';
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<${p}${root} ${xmlns}="${NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${NS} ${esc(style.base)}/api/v1.5/schema/master.xsd">\n`;
}

function tag(style: XmlStyle, name: string): string {
  return style.prefix ? `${style.prefix}:${name}` : name;
}

function link(style: XmlStyle, vm: SimVm): string {
  return `    <${tag(style, 'Link')} rel="up" href="${esc(style.base)}/api/vApp/${vm.id}" type="application/vnd.vmware.vcloud.vm+xml"/>\n`;
}

/** CurrentUsage of a running VM at `now` (the whole-VM names, plus the extra names real servers send); a spec's filter keeps the names it matches. */
export function currentUsage(style: XmlStyle, vm: SimVm, now: number, filter?: UsageFilter): string {
  let xml = open(style, 'CurrentUsage') + link(style, vm);
  for (const m of metricNames(vm)) {
    if (filter && !filter.matches(m.name)) continue;
    const bucket = Math.floor((now - PUBLISH_LAG_MS) / 1000 / intervalOf(m.name));
    xml += `    <${tag(style, 'Metric')} name="${m.name}" unit="${m.unit}" value="${metricValue(vm, m.name, bucket)}"/>\n`;
  }
  return xml + `</${tag(style, 'CurrentUsage')}>\n`;
}

/**
 * HistoricUsage of the last 24 h before `now`: samples at each series' interval with
 * a few seconds of jitter, ending when the VM's history stops; series in a VM-specific order.
 */
export function historicUsage(style: XmlStyle, vm: SimVm, now: number, filter?: UsageFilter): string {
  // Real vCD adds a sample every few minutes: a document rebuilt at most every 5 s is as fresh,
  // and keeps the simulator's own work out of the plugins' measured time in benchmarks.
  const key = `${style.prefix ?? ''}|${vm.id}|${Math.floor(now / 5000)}|${filter?.key ?? ''}`;
  const cacheKey = `${vm.id}|${filter?.key ?? ''}`;
  const cached = historicCache.get(cacheKey);
  if (cached?.key === key) return cached.xml;
  const xml = buildHistoricUsage(style, vm, now, filter);
  historicCache.set(cacheKey, { key, xml });
  return xml;
}

const historicCache = new Map<string, { key: string; xml: string }>();

/** The whole day, or what a spec's filter selects: the series it matches, the samples in its range. */
function buildHistoricUsage(style: XmlStyle, vm: SimVm, now: number, filter?: UsageFilter): string {
  let xml = open(style, 'HistoricUsage') + link(style, vm);
  const names = metricNames(vm);
  // Servers do not keep the series in a fixed order: rotate it per VM.
  const shift = parseInt(vm.id.slice(3, 5), 16) % names.length;
  const ordered = [...names.slice(shift), ...names.slice(0, shift)];
  const end = now - vm.historyStopsAgo * 1000 - PUBLISH_LAG_MS;
  const from = filter?.from ?? -Infinity;
  const to = filter?.to ?? Infinity;
  for (const m of ordered) {
    if (filter && !filter.matches(m.name)) continue;
    const interval = intervalOf(m.name);
    xml += `    <${tag(style, 'MetricSeries')} name="${m.name}" unit="${m.unit}" expectedInterval="${expectedIntervalAttribute(vm, m.name)}">\n`;
    const first = Math.ceil((now - HISTORY_SECONDS * 1000) / 1000 / interval);
    for (let bucket = first; ; bucket++) {
      const time = bucket * interval * 1000 + sampleOffsetMs(vm, m.name, bucket);
      if (time > end || time > to) break;
      if (time < from) continue;
      xml += `        <${tag(style, 'Sample')} timestamp="${new Date(time).toISOString()}" value="${metricValue(vm, m.name, bucket)}"/>\n`;
    }
    for (const f of futureSamples(vm, now).filter((f) => f.time >= from && f.time <= to))
      xml += `        <${tag(style, 'Sample')} timestamp="${new Date(f.time).toISOString()}" value="${metricValue(vm, m.name, first)}"/>\n`;
    xml += `    </${tag(style, 'MetricSeries')}>\n`;
  }
  return xml + `</${tag(style, 'HistoricUsage')}>\n`;
}

/** A vCD Error document. */
export function errorDocument(style: XmlStyle, status: number, minor: string, message: string): string {
  const requestId = 'a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<${tag(style, 'Error')} ${style.prefix ? `xmlns:${style.prefix}` : 'xmlns'}="${NS}" minorErrorCode="${minor}" message="${esc(`[ ${requestId} ] ${message}`)}" majorErrorCode="${status}" stackTrace="com.vmware.vcloud.api.presentation.service.${minor === 'BAD_REQUEST' ? 'BadRequestException' : 'AccessForbiddenException'}: ${esc(message)}"/>\n`;
}

/** The Session document of POST /api/sessions. */
export function sessionDocument(style: XmlStyle, user: string, org: string): string {
  return (
    open(style, 'Session').replace(
      `<${tag(style, 'Session')} `,
      `<${tag(style, 'Session')} user="${esc(user)}" org="${esc(org)}" roles="vApp Author" locationId="${esc(org)}@sim" href="${esc(style.base)}/api/session/" type="application/vnd.vmware.vcloud.session+xml" `,
    ) +
    `    <${tag(style, 'Link')} rel="down" href="${esc(style.base)}/api/org/" type="application/vnd.vmware.vcloud.orgList+xml"/>\n</${tag(style, 'Session')}>\n`
  );
}
