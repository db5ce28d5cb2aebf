// The vCD frame checks' skeleton (plugins/vcd-family.ts): it refuses a tenant account where
// only a System account sees what the check reads, before any request, and otherwise runs the
// check's read in its frame.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { afterEach, describe, expect, it } from 'vitest';
import { HTTP_OPTIONS } from '../../../lib/http/options';
import { CheckError } from '../../../lib/plugin/errors';
import { defineOptions } from '../../../lib/plugin/options';
import { State } from '../../../lib/plugin/state';
import { VCD_LOGIN_OPTIONS, VCD_URL_OPTION } from '../../../lib/vcd/api/connection-options';
import { vcdFrameCheck } from '../../../plugins/vcd-family';
import { runDefinition } from '../../support/plugin-definition';

describe('vcdFrameCheck', () => {
  afterEach(() => nock.cleanAll());
  const OPTIONS = defineOptions([VCD_URL_OPTION, ...VCD_LOGIN_OPTIONS, ...HTTP_OPTIONS]);
  const check = (systemOnly?: { what: string; instead?: string }) =>
    vcdFrameCheck({
      name: 'PROVIDER_THING',
      command: 'check_provider_thing',
      description: 'test',
      usage: 'check_provider_thing [options]',
      examples: [],
      options: OPTIONS,
      configure: (options) => ({ base: new URL(options.url!) }),
      ...(systemOnly ? { systemOnly } : {}),
      read: async () => ({ state: State.OK, summary: 'read' }),
    });
  const password = join(mkdtempSync(join(tmpdir(), 'cc-vcd-plugin-')), 'vcd.pw');
  writeFileSync(password, 'secret\n', { mode: 0o600 });
  const argv = (org: string) => ['-u', 'https://vcd.example.test', '-U', 'monitor', '-o', org, '--password-file', password, '--no-cache'];

  it('refuses a tenant account before any request, naming what it cannot see and where to go instead', async () => {
    nock.disableNetConnect();
    await expect(runDefinition(check({ what: 'provider things are', instead: 'use check_thing' }), argv('acme'))).rejects.toThrow(
      new CheckError('check_provider_thing needs a System account (--org System): provider things are not visible to organisation acme; use check_thing'),
    );
  });

  it('runs its read for a System account, and for any account when it is not System-only; the read sends what it sends', async () => {
    nock.disableNetConnect();
    expect((await runDefinition(check({ what: 'provider things are' }), argv('System'))).result).toEqual({ state: State.OK, summary: 'read' });
    expect((await runDefinition(check(), argv('acme'))).result).toEqual({ state: State.OK, summary: 'read' });
  });
});
