import { describe, expect, it } from 'vitest';
import type { ApiServerProbe, EndpointHealth } from '../../../lib/cluster/apiserver-probe';
import { evaluateApiServer } from '../../../lib/cluster/apiserver-report';
import { parseRange } from '../../../lib/plugin/range';
import { ScalarContext } from '../../../lib/plugin/scalar-context';
import { State } from '../../../lib/plugin/state';

// -w 1 -c 5 seconds, as check_apiserver's defaults.
const TIME = new ScalarContext({ warning: parseRange('1', '-w'), critical: parseRange('5', '-c') });

const CHECKS = ['ping', 'log', 'etcd', 'informer-sync', 'poststarthook/rbac/bootstrap-roles'].map((name) => ({ name, ok: true }));

function endpoint(name: 'readyz' | 'livez', over: Partial<EndpointHealth> = {}): EndpointHealth {
  return { endpoint: name, status: 200, seconds: 0.021, checks: CHECKS, failed: [], more: 0, verdict: `${name} check passed`, ...over };
}

const probe = (over: Partial<ApiServerProbe> = {}): ApiServerProbe => ({
  readyz: endpoint('readyz'),
  livez: endpoint('livez'),
  version: { text: 'v1.29.5+k3s1', major: 1, minor: 29, patch: 5 },
  ...over,
});

describe('evaluateApiServer', () => {
  it('OK: both endpoints pass quickly; the version leads, each time graphed with the ranges that judged it', () => {
    const r = evaluateApiServer(probe(), TIME);
    expect(r.state).toBe(State.OK);
    expect(r.summary).toBe('API server v1.29.5+k3s1: readyz ok (5 checks, 0.021 s), livez ok (5 checks, 0.021 s)');
    expect(r.metrics).toEqual([
      { label: 'readyz_time', value: 0.021, uom: 's', min: 0, warning: TIME.warning, critical: TIME.critical },
      { label: 'livez_time', value: 0.021, uom: 's', min: 0, warning: TIME.warning, critical: TIME.critical },
      { label: 'readyz_failed', value: 0, min: 0 },
      { label: 'livez_failed', value: 0, min: 0 },
    ]);
  });

  it('a failing check is CRITICAL, named with its reason; its line leads the long output', () => {
    const etcd = { name: 'etcd', ok: false, reason: 'reason withheld' };
    const r = evaluateApiServer(probe({ readyz: endpoint('readyz', { status: 500, failed: [etcd], seconds: 0.5 }) }), TIME);
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toBe('API server v1.29.5+k3s1: readyz failed: etcd (reason withheld), livez ok (5 checks, 0.021 s)');
    expect(r.items?.[0]).toEqual({ name: 'readyz/etcd', state: State.CRITICAL, text: 'readyz: [-]etcd failed: reason withheld' });
    expect(r.items?.[1]).toEqual({ name: 'readyz', state: State.CRITICAL, text: 'readyz failed: etcd (reason withheld), in 0.500 s' });
    expect(r.metrics?.find((m) => m.label === 'readyz_failed')?.value).toBe(1);
  });

  it('a 503 without a failing check named is CRITICAL still: the server is not ready', () => {
    const r = evaluateApiServer(probe({ livez: endpoint('livez', { status: 503, checks: [], verdict: 'shutting down' }) }), TIME);
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toContain('livez failed: HTTP 503 (shutting down)');
  });

  it('a slow endpoint takes the state -w/-c give its time, said after the endpoints', () => {
    const r = evaluateApiServer(probe({ livez: endpoint('livez', { seconds: 2.5 }), version: undefined }), TIME);
    expect(r.state).toBe(State.WARNING);
    expect(r.summary).toBe('readyz ok (5 checks, 0.021 s), livez ok (5 checks, 2.500 s), livez took 2.500 s');
    expect(r.items?.[0]).toMatchObject({ name: 'livez', state: State.WARNING });
  });

  it('failing checks beyond five are counted on the status line, every one in the long output', () => {
    const failed = Array.from({ length: 7 }, (_, i) => ({ name: `check-${i}`, ok: false }));
    const r = evaluateApiServer(probe({ readyz: endpoint('readyz', { status: 500, failed }) }), TIME);
    expect(r.summary).toContain('readyz failed: check-0, check-1, check-2, check-3, check-4 and 2 more');
    expect(r.items?.filter((i) => i.name.startsWith('readyz/'))).toHaveLength(7);
  });
});
