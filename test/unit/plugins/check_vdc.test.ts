// check_vdc as a definition: its options parsed as the runtime parses them, its run against a
// Cloud Director that nock plays (the query service's own record documents), in the read frame
// every vCD check opens (the login, the notes for -v, a cache that cannot keep sessions).
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { parsePluginOptions } from '../../../lib/plugin/options';
import { State } from '../../../lib/plugin/state';
import { plugin } from '../../../plugins/check_vdc/plugin';
import { useNockBoundary } from '../../support/nock-boundary';
import { testRunContext } from '../../support/run-context';

const HOST = 'https://vcd.example.com';
const FIXTURES = join(__dirname, '../../fixtures/vcd/query');
const VDCS = readFileSync(join(FIXTURES, 'orgVdc-records-schema-api33.xml'), 'utf8');
const POLICIES = readFileSync(join(FIXTURES, 'orgVdcStorageProfile-records-skyscape-api5.6.xml'), 'utf8');
/** The vm query's answer with no VM: the envelope vCD sends for an empty page. */
const NO_VMS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><QueryResultRecords xmlns="http://www.vmware.com/vcloud/v1.5" name="vm" page="1" pageSize="128" total="0" type="application/vnd.vmware.vcloud.query.records+xml"/>';

useNockBoundary();

/** A password file of its own for each run. */
function passwordFile(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'cc-vdc-')), 'pw');
  writeFileSync(path, 'secret\n', { mode: 0o600 });
  return path;
}

/** The vCD of one tenant's run: the CloudAPI login, the three queries check_vdc makes for one VDC, and the logout. */
function tenantVcd(): nock.Scope {
  return nock(HOST)
    .post('/cloudapi/1.0.0/sessions')
    .reply(200, '{}', { 'X-VMWARE-VCLOUD-ACCESS-TOKEN': 'jwt-vdc' })
    .get((uri) => uri.startsWith('/api/query?type=orgVdc&'))
    .reply(200, VDCS)
    .get((uri) => uri.startsWith('/api/query?type=orgVdcStorageProfile&'))
    .reply(200, POLICIES)
    .get((uri) => uri.startsWith('/api/query?type=vm&'))
    .reply(200, NO_VMS)
    .delete('/cloudapi/1.0.0/sessions/current')
    .reply(204);
}

const argv = (...more: string[]) => ['-u', HOST, '-U', 'monitor', '-o', 'acme', '--password-file', passwordFile(), '--api-version', '36.0', ...more];

describe('check_vdc, its definition run against nock', () => {
  it('judges the one VDC --vdc names from the records, and says the session for -v', async () => {
    tenantVcd();
    const context = testRunContext();
    const { options } = parsePluginOptions(argv('--vdc', 'DevOps Demo Env (IL2-TRIAL-BASIC)', '--no-cache'), plugin.options);
    const result = await plugin.run(options, context);
    expect(result.state).toBe(State.OK);
    expect(result.summary).toContain('DevOps Demo Env (IL2-TRIAL-BASIC)');
    // cpuUsedMhz 8400 of cpuLimitMhz 20000, memoryUsedMB 30720 of memoryLimitMB 65536.
    const metric = (suffix: string) => result.metrics?.find((m) => m.label.endsWith(suffix));
    expect(metric('__cpu_mhz')).toMatchObject({ value: 8400, max: 20000 });
    expect(metric('__cpu_pct')?.value).toBeCloseTo(42, 5);
    expect(metric('__memory_pct')?.value).toBeCloseTo((30720 / 65536) * 100, 5);
    // The policy's storageUsedMB 65536 of its storageLimitMB 512000.
    expect(metric('__storage_pct')?.value).toBeCloseTo(12.8, 5);
    expect(context.lines).toContain('session cache: off (--no-cache)');
    expect(context.notes.all).toContain('API version 36.0 (forced by --api-version)');
  });

  it('a cache that cannot keep sessions is the state --cache-unusable-state names', async () => {
    tenantVcd();
    const dir = mkdtempSync(join(tmpdir(), 'cc-vdc-cache-'));
    chmodSync(dir, 0o777); // writable by others: never trusted with a session
    const { options } = parsePluginOptions(
      argv('--vdc', 'DevOps Demo Env (IL2-TRIAL-BASIC)', '--cache-dir', dir, '--cache-unusable-state', 'WARNING'),
      plugin.options,
    );
    const result = await plugin.run(options, testRunContext());
    expect(result.state).toBe(State.WARNING);
    expect(result.summary).toMatch(/; every run logs in: session cache .* not used/);
    expect(result.items?.at(-1)).toMatchObject({ name: 'session-cache', state: State.WARNING });
  });
});
