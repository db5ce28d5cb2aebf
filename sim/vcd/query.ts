// The simulated cloud director's version list (GET /api/versions) and query service
// (GET /api/query: the VM types here, the VDC types in vdcs.ts), in the shapes real servers send:
// - SupportedVersions: vCD 10.x `/api/versions` (namespace .../vcloud/versions, one VersionInfo
//   per version with its `deprecated` attribute, plus alpha versions such as 38.0.0-alpha).
// - QueryResultRecords of VMRecord and AdminVMRecord: the vCloud API schema reference (QueryResultVMRecordType),
//   with the paging attributes and the `nextPage`/`previousPage` links of real answers; JSON
//   records as vCD answers `Accept: application/*+json` (`record`, `link`, `total`).
import type { ServerResponse } from 'node:http';
import { send } from '../faults';
import type { SimOrg, VmRecord } from './fleet';
import { simVappId } from './hygiene';

const NS = 'http://www.vmware.com/vcloud/v1.5';
// Control and line-separator characters as character references, as real servers write
// them (a raw line break in an attribute would be read as a space).
const esc = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/"/g, '&quot;')
    .replace(/[\u0001-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `&#${c.codePointAt(0)};`);

/** Every version the simulator knows; --vcd-versions picks some. */
export const ALL_VERSIONS = ['32.0', '33.0', '34.0', '35.0', '36.0', '37.0', '38.0', '38.1', '39.0'];

/** `--vcd-versions 37.0,38.0`: the versions served; refuses anything that is not `N.N`. */
export function parseVersionList(text: string): string[] {
  const list = text
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  for (const v of list) if (!/^\d+\.\d+$/.test(v)) throw new Error(`--vcd-versions: ${JSON.stringify(v)} is not a version such as 37.0`);
  if (list.length === 0) throw new Error('--vcd-versions: give at least one version');
  return list;
}

/** The SupportedVersions document of /api/versions (versions below 35.0 marked deprecated). */
export function versionsDocument(base: string, versions: readonly string[]): string {
  let xml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<SupportedVersions xmlns="http://www.vmware.com/vcloud/versions" xmlns:ns2="${NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.vmware.com/vcloud/versions ${esc(base)}/api/versions/schema/versions.xsd">\n`;
  for (const v of versions) {
    xml += `    <VersionInfo deprecated="${Number(v) < 35 ? 'true' : 'false'}">\n        <Version>${v}</Version>\n        <LoginUrl>${esc(base)}/api/sessions</LoginUrl>\n`;
    if (Number(v) < 34) {
      // Old versions still list their media types.
      xml += `        <MediaTypeMapping>\n            <MediaType>application/vnd.vmware.vcloud.vm+xml</MediaType>\n            <ComplexTypeName>VmType</ComplexTypeName>\n            <SchemaLocation>${esc(base)}/api/v1.5/schema/master.xsd</SchemaLocation>\n        </MediaTypeMapping>\n`;
    }
    xml += `    </VersionInfo>\n`;
  }
  const newest = versions[versions.length - 1];
  xml += `    <VersionInfo deprecated="false">\n        <Version>${Math.floor(Number(newest)) + 1}.0.0-alpha</Version>\n        <LoginUrl>${esc(base)}/api/sessions</LoginUrl>\n    </VersionInfo>\n`;
  return xml + `    <ProviderLoginUrl>${esc(base)}/cloudapi/1.0.0/sessions/provider</ProviderLoginUrl>\n</SupportedVersions>\n`;
}

/** One `attr==value` condition; the value may hold `*` wildcards. */
interface Condition {
  attr: string;
  test(value: string): boolean;
}

/**
 * Parses a query filter (FIQL as vCD uses it): `;` is AND, `,` is OR (between AND groups),
 * conditions are `attr==value` with `*` as a wildcard and string comparison ignoring case, or
 * `attr=gt=value` (ge, lt, le) comparing dates or numbers.
 * Returns undefined when the filter is not of that form.
 */
export function parseFilter(text: string): Condition[][] | undefined {
  const groups: Condition[][] = [];
  for (const orPart of text.replace(/^\((.*)\)$/, '$1').split(',')) {
    const group: Condition[] = [];
    for (const part of orPart.split(';')) {
      // A comparison (`startDate=gt=2026-01-01T00:00:00.000Z`): dates as instants, else numbers.
      const cmp = /^\(?([A-Za-z]+)=(gt|ge|lt|le)=([^()]*)\)?$/.exec(part);
      if (cmp) {
        group.push(comparison(cmp[1], cmp[2] as 'gt' | 'ge' | 'lt' | 'le', cmp[3]));
        continue;
      }
      const m = /^\(?([A-Za-z]+)==([^()]*)\)?$/.exec(part);
      if (!m) return undefined;
      const pattern = new RegExp(
        `^${m[2]
          .split('*')
          .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
        'is',
      );
      group.push({ attr: m[1], test: (v) => pattern.test(v) });
    }
    groups.push(group);
  }
  return groups;
}

/** An `attr=gt=value` condition (and ge, lt, le): instants when both sides are dates, else numbers. */
function comparison(attr: string, op: 'gt' | 'ge' | 'lt' | 'le', text: string): Condition {
  const asNumber = (v: string) => (/^\d{4}-\d{2}-\d{2}T/.test(v) ? Date.parse(v) : Number(v));
  const limit = asNumber(text);
  return {
    attr,
    test: (v) => {
      const n = asNumber(v);
      if (Number.isNaN(n) || Number.isNaN(limit)) return false;
      return op === 'gt' ? n > limit : op === 'ge' ? n >= limit : op === 'lt' ? n < limit : n <= limit;
    },
  };
}

/** One record of a query answer: how filters read it and how it is written in XML and JSON. */
export interface QueryRow {
  /** Sort key (the query's sortAsc=name). */
  name: string;
  id: string;
  /** A filterable attribute's value as text, or undefined. */
  attr(name: string): string | undefined;
  /** The XML element (VMRecord, AdminVdcRecord, ...) and its attributes in order. */
  element: string;
  xml: ReadonlyArray<readonly [string, string]>;
  /** The JSON record (`_type` and typed values), as vCD answers Accept: application/*+json. */
  json: Record<string, unknown>;
}

/** The VM records of the fleet as query rows (`adminVM`: AdminVMRecord with the href of each VM's org). */
export function vmRows(
  records: readonly VmRecord[],
  base: string,
  vdcOf: (r: VmRecord) => string,
  admin?: { orgHref: (r: VmRecord) => string },
  hygiene: (r: VmRecord) => Record<string, string> = () => ({}),
): QueryRow[] {
  return records.map((r) => {
    // The VMs of a vApp share its id (a template's own, by the VM).
    const container = () => (r.template ? `${base}/api/vApp/vappTemplate-${r.id.slice(3)}` : `${base}/api/vApp/${simVappId(r.vapp)}`);
    // Written when a page holds the record, not for every record of every page: a fleet of
    // 100,000 VMs is served page by page at the cost of the page.
    const values = (): Record<string, string> => ({
      vdc: vdcOf(r),
      status: r.status,
      name: r.name,
      containerName: r.vapp,
      container: container(),
      isVAppTemplate: String(r.template),
      isDeployed: String(r.status === 'POWERED_ON'),
      guestOs: 'Ubuntu Linux (64-bit)',
      numberOfCpus: '2',
      memoryMB: '4096',
      ...(admin ? { org: admin.orgHref(r) } : {}),
      ...hygiene(r),
      href: `${base}/api/vApp/${r.id}`,
    });
    const direct: Record<string, () => string> = { name: () => r.name, containerName: () => r.vapp, status: () => r.status };
    return {
      name: r.name,
      id: r.id,
      // The query service filters `id` by the bare UUID, as clients send it.
      attr: (a) => (a === 'id' ? r.id.slice(3) : direct[a] ? direct[a]() : values()[a]),
      element: admin ? 'AdminVMRecord' : 'VMRecord',
      get xml() {
        return Object.entries(values());
      },
      get json() {
        const v = values();
        const { vdc, status, name, containerName, href, ...rest } = v;
        const extra = Object.fromEntries(
          Object.entries(rest).filter(([k]) => !['container', 'isVAppTemplate', 'isDeployed', 'guestOs', 'numberOfCpus', 'memoryMB', 'org'].includes(k)),
        );
        return {
          _type: admin ? 'QueryResultAdminVMRecordType' : 'QueryResultVMRecordType',
          href,
          name,
          containerName,
          container: v.container,
          status,
          isVAppTemplate: r.template,
          isDeployed: r.status === 'POWERED_ON',
          vdc,
          guestOs: 'Ubuntu Linux (64-bit)',
          numberOfCpus: 2,
          memoryMB: 4096,
          ...(admin ? { org: v.org } : {}),
          ...extra,
        };
      },
    };
  });
}

/**
 * The OrgRecords of the `organization` query (as the API reference's example of
 * GET /api/admin/orgs/query shows them): a provider sees every organisation, a tenant its own.
 */
export function orgRows(orgs: readonly SimOrg[], base: string): QueryRow[] {
  return orgs.map((o) => {
    const values: Record<string, string> = {
      canPublishCatalogs: 'false',
      deployedVMQuota: '0',
      displayName: o.displayName,
      href: `${base}/api/org/${o.id}`,
      isEnabled: 'true',
      isReadOnly: 'false',
      name: o.name,
      numberOfCatalogs: '1',
      numberOfVdcs: '1',
      storedVMQuota: '0',
    };
    return {
      name: o.name,
      id: o.id,
      attr: (a) => values[a],
      element: 'OrgRecord',
      xml: Object.entries(values),
      json: { _type: 'QueryResultOrgRecordType', href: values.href, name: o.name, displayName: o.displayName, isEnabled: true, isReadOnly: false },
    };
  });
}

/** Rows already in the query's order (name, then id): an answer without a filter takes its page of them as they are. */
const presorted = new WeakSet<readonly QueryRow[]>();

const byNameThenId = (a: QueryRow, b: QueryRow) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1);

/** Sorts rows in the query's order, once, and marks them so. */
export function sortedRows(rows: QueryRow[]): QueryRow[] {
  rows.sort(byNameThenId);
  presorted.add(rows);
  return rows;
}

/** The sorted rows a filter matches, kept per list of rows: a client paging through 100,000 records sorts them once. */
const sortedMatches = new WeakMap<readonly QueryRow[], Map<string, QueryRow[]>>();
function matchingRows(rows: readonly QueryRow[], filterText: string | null, filter: Condition[][]): QueryRow[] {
  let byFilter = sortedMatches.get(rows);
  if (!byFilter) sortedMatches.set(rows, (byFilter = new Map()));
  const known = byFilter.get(filterText ?? '');
  if (known) return known;
  const matching = rows
    .filter(
      (r) =>
        filter.length === 0 ||
        filter.some((group) =>
          group.every((c) => {
            const v = r.attr(c.attr);
            return v !== undefined && c.test(v);
          }),
        ),
    )
    .sort(byNameThenId);
  byFilter.set(filterText ?? '', matching);
  return matching;
}

/** Answers one query-service request of `type` over `rows`: filter, sort, page, links; `bump` counts pages served. */
export function answerRecords(
  res: ServerResponse,
  url: URL,
  base: string,
  rows: readonly QueryRow[],
  json: boolean,
  version: string,
  bump: (name: string) => void,
  fixedPageSize = 0,
): void {
  const type = url.searchParams.get('type') ?? '';
  const fail = (status: number, message: string) => sendQueryError(res, json, version, status, message);
  const format = url.searchParams.get('format') ?? 'references';
  if (format !== 'records') return fail(400, `Unsupported format "${format}" in this simulator (only format=records)`);
  const filterText = url.searchParams.get('filter');
  const filter = filterText === null ? [] : parseFilter(filterText);
  if (!filter) return fail(400, `Bad filter expression "${filterText}"`);
  const pageSize = fixedPageSize > 0 ? fixedPageSize : Math.min(128, Math.max(1, Number(url.searchParams.get('pageSize') ?? '25') || 25));
  const page = Math.max(1, Number(url.searchParams.get('page') ?? '1') || 1);
  const matching = presorted.has(rows) && filter.length === 0 ? rows : matchingRows(rows, filterText, filter);
  const total = matching.length;
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  if (page > lastPage) return fail(400, `The requested page ${page} is out of range: last page is ${lastPage}`);
  bump('query');
  const slice = matching.slice((page - 1) * pageSize, page * pageSize);
  const pageHref = (p: number) => {
    const u = new URL(`${base}/api/query`);
    u.searchParams.set('type', type);
    u.searchParams.set('page', String(p));
    u.searchParams.set('pageSize', String(pageSize));
    u.searchParams.set('format', 'records');
    if (filterText !== null) u.searchParams.set('filter', filterText);
    return u.href;
  };
  const links: Array<{ rel: string; href: string }> = [];
  if (page < lastPage) links.push({ rel: 'nextPage', href: pageHref(page + 1) });
  if (page > 1) links.push({ rel: 'previousPage', href: pageHref(page - 1) });
  links.push({ rel: 'lastPage', href: pageHref(lastPage) });
  if (json) {
    const doc = {
      otherAttributes: {},
      link: links.map((l) => ({ rel: l.rel, href: l.href, type: 'application/vnd.vmware.vcloud.query.records+json' })),
      href: pageHref(page),
      type: 'application/vnd.vmware.vcloud.query.records+json',
      name: type,
      page,
      pageSize,
      total,
      record: slice.map((r) => r.json),
    };
    return send(res, 200, { 'content-type': `application/vnd.vmware.vcloud.query.records+json;version=${version}` }, JSON.stringify(doc));
  }
  let xml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<QueryResultRecords xmlns="${NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" name="${esc(type)}" page="${page}" pageSize="${pageSize}" total="${total}" href="${esc(pageHref(page))}" type="application/vnd.vmware.vcloud.query.records+xml" xsi:schemaLocation="${NS} ${esc(base)}/api/v1.5/schema/master.xsd">\n`;
  for (const l of links) xml += `    <Link rel="${l.rel}" href="${esc(l.href)}" type="application/vnd.vmware.vcloud.query.records+xml"/>\n`;
  for (const r of slice) xml += `    <${r.element} ${r.xml.map(([k, v]) => `${k}="${esc(v)}"`).join(' ')}/>\n`;
  return send(res, 200, { 'content-type': `application/vnd.vmware.vcloud.query.records+xml;version=${version}` }, xml + '</QueryResultRecords>\n');
}

/** The query service's refusal, in the format asked for. */
export function sendQueryError(res: ServerResponse, json: boolean, version: string, status: number, message: string, minor = 'BAD_REQUEST'): void {
  return json
    ? send(
        res,
        status,
        { 'content-type': `application/vnd.vmware.vcloud.error+json;version=${version}` },
        JSON.stringify({ minorErrorCode: minor, message, majorErrorCode: status, stackTrace: null }),
      )
    : send(
        res,
        status,
        { 'content-type': `application/vnd.vmware.vcloud.error+xml;version=${version}` },
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Error xmlns="${NS}" minorErrorCode="${minor}" message="${esc(message)}" majorErrorCode="${status}"/>\n`,
      );
}
