// The query service's pages as a hostile server may send them: one page of more records than
// any organisation has, names of megabytes, pages that never end.
import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../../../../lib/http/request';
import { CheckError } from '../../../../lib/plugin/errors';
import { MAX_NAME_CHARS } from '../../../../lib/vcd/api/query-pages';
import { DEFAULT_MAX_VMS, parseVmRecords, queryAllVms, queryPath } from '../../../../lib/vcd/inventory/vm-query';
import { testConnection } from '../../../support/vcd-connection';
import { cpuNow } from '../../../support/cpu-time';

const HOST = 'https://vcd.example.com';
const id = (n: number) => `vm-00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const record = (n: number, name = `vm-${n}`) =>
  `<VMRecord name="${name}" containerName="shop" status="POWERED_ON" isVAppTemplate="false" href="${HOST}/api/vApp/${id(n)}"/>`;
const page = (records: string, next?: number) =>
  `<?xml version="1.0" encoding="UTF-8"?><QueryResultRecords xmlns="http://www.vmware.com/vcloud/v1.5" total="999999">${next === undefined ? '' : `<Link rel="nextPage" href="${HOST}/api/query?type=vm&amp;page=${next}"/>`}${records}</QueryResultRecords>`;
const answer = (body: string): HttpResponse => ({ status: 200, headers: {}, body: Buffer.from(body), url: new URL(`${HOST}/api/query`) });

describe('queryAllVms: bounded whatever the server sends', () => {
  it('one page of 150,000 records is refused by the record bound, not by the call stack', async () => {
    const big = page(Array.from({ length: 150_000 }, (_, i) => record(i)).join(''));
    const error = await queryAllVms(testConnection(HOST), async () => answer(big), queryPath({})).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckError);
    expect((error as Error).message).toBe(
      `the query service of ${HOST} listed more than ${DEFAULT_MAX_VMS} VMs, narrow it with --vapp (or raise --max-vms if the organisation is really that large)`,
    );
  });

  it('endless pages end at the record bound', async () => {
    let served = 0;
    const get = async () => answer(page(Array.from({ length: 128 }, (_, i) => record(served * 128 + i)).join(''), ++served + 1));
    await expect(queryAllVms(testConnection(HOST), get, queryPath({}))).rejects.toThrow(/listed more than 100000 VMs/);
    expect(served).toBe(Math.ceil((DEFAULT_MAX_VMS + 1) / 128));
    served = 0;
    await expect(queryAllVms(testConnection(HOST), get, queryPath({}), undefined, 1000)).rejects.toThrow(
      /listed more than 1000 VMs, narrow it with --vapp \(or raise --max-vms/,
    );
    expect(served).toBe(8);
  });
});

describe('parseVmRecords: what a page may hold', () => {
  it('a name longer than vCD allows is refused, naming the record', () => {
    expect(() => parseVmRecords(page(record(1, 'x'.repeat(MAX_NAME_CHARS + 1))))).toThrow(
      `unexpected query response: the name of VMRecord ${id(1)} is 257 characters long, and vCD allows 128`,
    );
    expect(parseVmRecords(page(record(1, 'x'.repeat(MAX_NAME_CHARS)))).records[0].name).toHaveLength(MAX_NAME_CHARS);
  });

  it('an attribute of 30 MB is refused while the page is read', () => {
    const started = cpuNow();
    expect(() => parseVmRecords(page(record(1, 'x'.repeat(30_000_000))))).toThrow(
      /not XML \(attribute name of <VMRecord> is 30000000 characters long, more than 8192/,
    );
    expect(cpuNow() - started).toBeLessThan(2000);
  });
});
