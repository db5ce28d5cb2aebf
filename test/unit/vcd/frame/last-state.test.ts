// --last-state (lib/vcd/frame/last-state.ts): a dependent of check_vcd already in a problem state
// keeps it while vCD does not answer at all, so that the window before check_vcd's next run does
// not page an unchanged problem twice (UNKNOWN, then back). Only a transport failure keeps it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { describeNetworkError, TransportError } from '../../../../lib/http/network-errors';
import type { RunContext } from '../../../../lib/plugin/context';
import { CheckError, UsageError } from '../../../../lib/plugin/errors';
import type { Result } from '../../../../lib/plugin/result';
import { State } from '../../../../lib/plugin/state';
import type { VcdRunContext } from '../../../../lib/vcd/api/session-request';
import { keepingLastState, keepOnTransportFailure, lastStateFrom, LAST_STATE_OPTION } from '../../../../lib/vcd/frame/last-state';
import { plugin as vdcPlugin } from '../../../../plugins/check_vdc/plugin';
import { plugin as vcdPlugin } from '../../../../plugins/check_vcd/plugin';
import { plugin as fleetPlugin } from '../../../../plugins/check_vm_fleet/plugin';
import { runDefinition } from '../../../support/plugin-definition';
import { useNockBoundary } from '../../../support/nock-boundary';
import { testRunContext } from '../../../support/run-context';

const URL_ = new URL('https://vcd.example.com');
const ORIGIN = 'https://vcd.example.com';

/** A socket-level failure as Node reports it, turned into the plugins' error. */
function socketFailure(code: string, message = code): CheckError {
  return describeNetworkError(Object.assign(new Error(message), { code }), URL_);
}

describe('lastStateFrom', () => {
  it.each([
    ['1', State.WARNING],
    ['2', State.CRITICAL],
    ['WARNING', State.WARNING],
    ['critical', State.CRITICAL],
    ['0', undefined],
    ['3', undefined],
    ['OK', undefined],
    ['', undefined],
    [' ', undefined],
    [undefined, undefined],
  ])('%j keeps %s', (text, state) => {
    expect(lastStateFrom({ 'last-state': text, url: `${ORIGIN}/api` })).toEqual(state === undefined ? undefined : { state, origin: ORIGIN });
  });

  it.each(['4', '-1', 'PENDING', '$SERVICESTATEID$'])('%j is a usage error that names the option', (text) => {
    expect(() => lastStateFrom({ 'last-state': text, url: ORIGIN })).toThrow(UsageError);
    expect(() => lastStateFrom({ 'last-state': text, url: ORIGIN })).toThrow(/invalid --last-state/);
  });
});

describe('keepOnTransportFailure: which failures keep the state', () => {
  it.each(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ETIMEDOUT'])('%s (vCD does not answer) keeps it', (code) => {
    const error = socketFailure(code);
    expect(error).toBeInstanceOf(TransportError);
    const kept = keepOnTransportFailure(error, State.WARNING, ORIGIN) as CheckError;
    expect(kept).toBeInstanceOf(CheckError);
    expect(kept.state).toBe(State.WARNING);
    expect(kept.message).toBe(`vCD at ${ORIGIN} is not answering: ${error.message}; the last result's state is kept (check_vcd reports the outage)`);
    expect(kept.cause).toBe(error);
  });

  it('a truncated answer (the connection cut mid-body) keeps it', () => {
    const error = new TransportError('connection to vcd.example.com closed before the whole response was received (truncated body)');
    expect((keepOnTransportFailure(error, State.CRITICAL, ORIGIN) as CheckError).state).toBe(State.CRITICAL);
  });

  it.each([
    ['a refused certificate', socketFailure('CERT_HAS_EXPIRED')],
    ['a certificate for another name', socketFailure('ERR_TLS_CERT_ALTNAME_INVALID')],
    ['a 5xx', new CheckError('vCD at https://vcd.example.com answered HTTP 503 Service Unavailable')],
    ['a refused login', new CheckError('login of monitor@acme refused (HTTP 401)')],
    ['a bad option', new UsageError('invalid --vdc')],
    ['an internal error', new TypeError('x is undefined')],
  ])('%s is said as ever', (_what, error) => {
    expect(keepOnTransportFailure(error, State.WARNING, ORIGIN)).toBe(error);
  });

  it('nothing to keep (no --last-state, or OK/UNKNOWN): the failure is itself', () => {
    const error = socketFailure('ECONNREFUSED');
    expect(keepOnTransportFailure(error, undefined, ORIGIN)).toBe(error);
  });
});

describe('keepingLastState: the run', () => {
  const failing = (error: unknown) => () => Promise.reject(error);
  const keep = (text?: string) => lastStateFrom({ 'last-state': text, url: `${ORIGIN}/api` });

  it('a transport failure with --last-state 1 becomes WARNING; without, or after UNKNOWN, it stays itself', async () => {
    const error = socketFailure('ECONNREFUSED');
    await expect(keepingLastState(keep('1'), testRunContext(), failing(error))).rejects.toMatchObject({
      state: State.WARNING,
      message: expect.stringMatching(/^vCD at https:\/\/vcd\.example\.com is not answering: connection refused/),
    });
    await expect(keepingLastState(keep(), testRunContext(), failing(error))).rejects.toBe(error);
    await expect(keepingLastState(keep('3'), testRunContext(), failing(error))).rejects.toBe(error);
  });

  it('a result is the result: a measured run is never replaced', async () => {
    const measured: Result = { state: State.OK, summary: 'all fine', metrics: [] };
    await expect(keepingLastState(keep('2'), testRunContext(), async () => measured)).resolves.toBe(measured);
  });

  it('-t expiring while the run waits on vCD keeps the state; while it does anything else, the timeout is said as ever', async () => {
    let held: (() => Result | undefined) | undefined;
    const context: RunContext = { ...testRunContext(), holdResult: (make) => (held = make) };
    const steps: Array<(c: VcdRunContext) => void> = [];
    const run = async (c: VcdRunContext): Promise<Result> => {
      for (const step of steps) step(c);
      return { state: State.OK, summary: '' };
    };
    await keepingLastState(keep('2'), context, run);
    // No phase yet: a first read with a cached session waits on vCD.
    expect(held?.()).toEqual({
      state: State.CRITICAL,
      summary: `vCD at ${ORIGIN} is not answering: no answer within -t; the last result's state is kept (check_vcd reports the outage)`,
    });
    steps.push((c) => c.setPhase('parsing the metrics'));
    await keepingLastState(keep('2'), context, run);
    expect(held?.()).toBeUndefined();
    steps.push((c) => c.setVcdPhase?.('reading page 1 of orgVdc'));
    await keepingLastState(keep('2'), context, run);
    expect(held?.()?.state).toBe(State.CRITICAL);
  });
});

describe('the plugins', () => {
  useNockBoundary();
  const pw = join(mkdtempSync(join(tmpdir(), 'cc-last-state-')), 'pw');
  writeFileSync(pw, 'secret\n', { mode: 0o600 });
  const argv = ['-u', ORIGIN, '-U', 'monitor', '-o', 'acme', '--password-file', pw, '--no-cache', '--vdc', 'acme-prod'];

  it('check_vdc: a bad --last-state is a usage error before any request', async () => {
    await expect(runDefinition(vdcPlugin, [...argv, '--last-state', 'x'])).rejects.toBeInstanceOf(UsageError);
  });

  it('check_vdc: vCD refusing the connection keeps --last-state 1, with no perfdata', async () => {
    nock(ORIGIN)
      .get('/api/versions')
      .replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const failure = runDefinition(vdcPlugin, [...argv, '--last-state', '1']);
    await expect(failure).rejects.toMatchObject({ state: State.WARNING, message: expect.stringContaining("the last result's state is kept") });
  });

  it('check_vdc: vCD answering 503 is UNKNOWN whatever --last-state says', async () => {
    // Every request: the versions list, and the login that goes on without it.
    nock(ORIGIN).persist().get(/.*/).reply(503, 'down for maintenance').post(/.*/).reply(503, 'down for maintenance');
    const error = await runDefinition(vdcPlugin, [...argv, '--last-state', '2']).catch((e: unknown) => e);
    expect(error).toMatchObject({ state: State.UNKNOWN, message: expect.stringContaining('503') });
    expect((error as Error).message).not.toContain('kept');
  });

  it('check_vcd, the parent, and check_vm_fleet, whose VM services wait on its failure, have no --last-state: they must fail when vCD does', () => {
    expect(vcdPlugin.options.map((o) => o.long)).not.toContain(LAST_STATE_OPTION.long);
    expect(fleetPlugin.options.map((o) => o.long)).not.toContain(LAST_STATE_OPTION.long);
    expect(vdcPlugin.options.map((o) => o.long)).toContain(LAST_STATE_OPTION.long);
  });
});
