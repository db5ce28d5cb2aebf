// The simulated cloud director's version list (GET /api/versions) and query service
// (GET /api/query?type=vm), in the shapes real servers send:
// - SupportedVersions: vCD 10.x `/api/versions` (namespace .../vcloud/versions, one VersionInfo
//   per version with its `deprecated` attribute, plus alpha versions such as 38.0.0-alpha).
// - QueryResultRecords of VMRecord: the vCloud API schema reference (QueryResultVMRecordType),
//   with the paging attributes and the `nextPage`/`previousPage` links of real answers; JSON
//   records as vCD answers `Accept: application/*+json` (`record`, `link`, `total`).
import type { ServerResponse } from 'node:http';
import { send } from '../faults';
import type { VmRecord } from './fleet';

const NS = 'http://www.vmware.com/vcloud/v1.5';
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** Every version the simulator knows; --vcd-versions picks some. */
export const ALL_VERSIONS = ['32.0', '33.0', '34.0', '35.0', '36.0', '37.0', '38.0', '38.1', '39.0'];

/** `--vcd-versions 37.0,38.0`: the versions served; refuses anything that is not `N.N`. */
export function parseVersionList(text: string): string[] {
  const list = text.split(',').map((v) => v.trim()).filter((v) => v !== '');
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
 * conditions are `attr==value` with `*` as a wildcard and string comparison ignoring case.
 * Returns undefined when the filter is not of that form.
 */
export function parseFilter(text: string): Condition[][] | undefined {
  const groups: Condition[][] = [];
  for (const orPart of text.replace(/^\((.*)\)$/, '$1').split(',')) {
    const group: Condition[] = [];
    for (const part of orPart.split(';')) {
      const m = /^\(?([A-Za-z]+)==([^()]*)\)?$/.exec(part);
      if (!m) return undefined;
      const pattern = new RegExp(`^${m[2].split('*').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'is');
      group.push({ attr: m[1], test: (v) => pattern.test(v) });
    }
    groups.push(group);
  }
  return groups;
}

function attrOf(r: VmRecord, attr: string): string | undefined {
  switch (attr) {
    case 'name':
      return r.name;
    case 'containerName':
      return r.vapp;
    case 'status':
      return r.status;
    case 'isVAppTemplate':
      return String(r.template);
    default:
      return undefined;
  }
}

/** Answers one query-service request; `counted` is bumped per page served. */
export function answerQuery(res: ServerResponse, url: URL, base: string, records: readonly VmRecord[], json: boolean, version: string, bump: (name: string) => void): void {
  const fail = (status: number, message: string) =>
    json
      ? send(res, status, { 'content-type': `application/vnd.vmware.vcloud.error+json;version=${version}` }, JSON.stringify({ minorErrorCode: 'BAD_REQUEST', message, majorErrorCode: status, stackTrace: null }))
      : send(res, status, { 'content-type': `application/vnd.vmware.vcloud.error+xml;version=${version}` }, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Error xmlns="${NS}" minorErrorCode="BAD_REQUEST" message="${esc(message)}" majorErrorCode="${status}"/>\n`);
  const type = url.searchParams.get('type');
  if (type !== 'vm') return fail(400, `Unsupported query type "${type ?? ''}" in this simulator (only type=vm)`);
  const format = url.searchParams.get('format') ?? 'references';
  if (format !== 'records') return fail(400, `Unsupported format "${format}" in this simulator (only format=records)`);
  const filterText = url.searchParams.get('filter');
  const filter = filterText === null ? [] : parseFilter(filterText);
  if (!filter) return fail(400, `Bad filter expression "${filterText}"`);
  const pageSize = Math.min(128, Math.max(1, Number(url.searchParams.get('pageSize') ?? '25') || 25));
  const page = Math.max(1, Number(url.searchParams.get('page') ?? '1') || 1);
  const matching = records
    .filter((r) => filter.length === 0 || filter.some((group) => group.every((c) => { const v = attrOf(r, c.attr); return v !== undefined && c.test(v); })))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1));
  const total = matching.length;
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  if (page > lastPage) return fail(400, `The requested page ${page} is out of range: last page is ${lastPage}`);
  bump('query');
  const slice = matching.slice((page - 1) * pageSize, page * pageSize);
  const pageHref = (p: number) => {
    const u = new URL(`${base}/api/query`);
    u.searchParams.set('type', 'vm');
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
  const vdc = `${base}/api/vdc/7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f`;
  if (json) {
    const doc = {
      otherAttributes: {},
      link: links.map((l) => ({ rel: l.rel, href: l.href, type: 'application/vnd.vmware.vcloud.query.records+json' })),
      href: pageHref(page),
      type: 'application/vnd.vmware.vcloud.query.records+json',
      name: 'vm',
      page,
      pageSize,
      total,
      record: slice.map((r) => ({
        _type: 'QueryResultVMRecordType',
        href: `${base}/api/vApp/${r.id}`,
        name: r.name,
        containerName: r.vapp,
        container: `${base}/api/vApp/${r.template ? 'vappTemplate' : 'vapp'}-${r.id.slice(3)}`,
        status: r.status,
        isVAppTemplate: r.template,
        isDeployed: r.status === 'POWERED_ON',
        vdc,
        guestOs: 'Ubuntu Linux (64-bit)',
        numberOfCpus: 2,
        memoryMB: 4096,
      })),
    };
    return send(res, 200, { 'content-type': `application/vnd.vmware.vcloud.query.records+json;version=${version}` }, JSON.stringify(doc));
  }
  let xml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<QueryResultRecords xmlns="${NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" name="vm" page="${page}" pageSize="${pageSize}" total="${total}" href="${esc(pageHref(page))}" type="application/vnd.vmware.vcloud.query.records+xml" xsi:schemaLocation="${NS} ${esc(base)}/api/v1.5/schema/master.xsd">\n`;
  for (const l of links) xml += `    <Link rel="${l.rel}" href="${esc(l.href)}" type="application/vnd.vmware.vcloud.query.records+xml"/>\n`;
  for (const r of slice) {
    const container = `${base}/api/vApp/${r.template ? 'vappTemplate' : 'vapp'}-${r.id.slice(3)}`;
    xml += `    <VMRecord vdc="${esc(vdc)}" status="${r.status}" name="${esc(r.name)}" containerName="${esc(r.vapp)}" container="${esc(container)}" isVAppTemplate="${r.template}" isDeployed="${r.status === 'POWERED_ON'}" guestOs="Ubuntu Linux (64-bit)" numberOfCpus="2" memoryMB="4096" href="${esc(base)}/api/vApp/${r.id}"/>\n`;
  }
  return send(res, 200, { 'content-type': `application/vnd.vmware.vcloud.query.records+xml;version=${version}` }, xml + '</QueryResultRecords>\n');
}
