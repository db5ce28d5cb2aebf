import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { notRunning, parseVmRecord, readVmRecord } from '../../../../lib/vcd/vm/vm-record';

const fixture = (name: string) => readFileSync(join(__dirname, '../../../fixtures/vcd', name), 'utf8');
const OFF = fixture('vm-powered-off.xml');
const withStatus = (status: string, deployed = 'true') => OFF.replace('deployed="false" status="8"', `deployed="${deployed}" status="${status}"`);

describe('parseVmRecord', () => {
  it('reads name, status and deployed from a real-shaped Vm document', () => {
    expect(parseVmRecord(OFF)).toEqual({ name: 'old-04', status: 8, statusName: 'POWERED_OFF', deployed: false });
  });
  it.each([
    ['4', 'POWERED_ON', undefined],
    ['8', 'POWERED_OFF', 'powered off'],
    ['3', 'SUSPENDED', 'suspended'],
    ['1', 'RESOLVED', 'powered off'],
    ['6', 'UNKNOWN', undefined],
    ['9', 'INCONSISTENT_STATE', undefined],
    ['42', 'status 42', undefined],
  ])('status %s is %s: not running as %j', (status, name, words) => {
    const record = parseVmRecord(withStatus(status));
    expect(record.statusName).toBe(name);
    expect(notRunning(record)).toBe(words);
  });
  it('refuses what is not a Vm record, naming it', () => {
    expect(() => parseVmRecord(fixture('current-usage.xml'))).toThrow(
      /the server|not a vCD Vm document \(root element \{http:\/\/www.vmware.com\/vcloud\/v1.5\}CurrentUsage\)/,
    );
    expect(() => parseVmRecord('<html><body>login</body></html>')).toThrow(/not a vCD Vm document \(root element html\)/);
    expect(() => parseVmRecord('maintenance')).toThrow(/VM record is not XML/);
    expect(() => parseVmRecord(withStatus('on'))).toThrow('VM record has no valid status ("on")');
    expect(() => parseVmRecord(fixture('error-forbidden.xml'))).toThrow(
      /VM record: the server answered with an error: Either you need .* \(ACCESS_TO_RESOURCE_IS_FORBIDDEN\)/,
    );
  });
});

describe('readVmRecord', () => {
  const response = (status: number, body: string) => ({ status, headers: {}, body: Buffer.from(body) }) as never;
  it('GETs /api/vApp/<vm> and parses it', async () => {
    const asked: string[] = [];
    const record = await readVmRecord(async (path) => (asked.push(path), response(200, OFF)), 'vm-0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e');
    expect(asked).toEqual(['/api/vApp/vm-0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e']);
    expect(record.statusName).toBe('POWERED_OFF');
  });
  it("reports a refusal with the server's words", async () => {
    await expect(readVmRecord(async () => response(403, fixture('error-forbidden.xml')), 'vm-1')).rejects.toThrow(
      /^GET \/api\/vApp\/vm-1 answered HTTP 403: Either you need .*\(ACCESS_TO_RESOURCE_IS_FORBIDDEN\)$/,
    );
  });
});
