import { describe, expect, it } from 'vitest';
import { formatMetric } from '../../../../lib/plugin/perfdata';
import { ScalarContext } from '../../../../lib/plugin/scalar-context';
import { State } from '../../../../lib/plugin/state';
import type { Datastore, VCenter } from '../../../../lib/vcd/backends/backend-read';
import { judgeBackends, type BackendThresholds } from '../../../../lib/vcd/backends/backend-report';

const T: BackendThresholds = {
  storage: ScalarContext.fromOptions({ warning: '80', critical: '90' }),
  overcommit: ScalarContext.fromOptions({ warning: '150' }),
  disabledState: State.OK,
};
const vc = (over: Partial<VCenter> = {}): VCenter => ({
  id: 'a1',
  name: 'vc-1',
  enabled: true,
  connected: true,
  listener: 'CONNECTED',
  health: 'GREEN',
  version: '8.0.2',
  ...over,
});
const ds = (over: Partial<Datastore> = {}): Datastore => ({
  id: 'd1',
  name: 'ds-gold',
  vc: 'vc-1',
  type: 'VMFS6',
  enabled: true,
  capacityMB: 2_097_152,
  usedMB: 1_048_576,
  provisionedMB: 1_572_864,
  odd: [],
  ...over,
});

describe('judgeBackends', () => {
  it('one datastore: its line is the status line; used and provisioned judged and graphed in one call each', () => {
    const r = judgeBackends([], [ds()], T);
    expect(r.state).toBe(State.OK);
    expect(r.summary).toBe('datastore ds-gold (vCenter vc-1, VMFS6): 50% used of 2048 GiB, 75% provisioned');
    expect(r.metrics?.map(formatMetric)).toEqual(['vc-1__ds-gold__used_pct=50%;80;90;0;100', 'vc-1__ds-gold__provisioned_pct=75%;150;;0']);
  });

  it('the worst object decides; the status line names each problem, the OK parts of an object left out', () => {
    const r = judgeBackends([vc(), vc({ id: 'b2', name: 'vc-2', connected: false, listener: 'DISCONNECTED' })], [ds({ usedMB: 1_992_294 })], T);
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toBe('2 vCenters, 1 datastore: vCenter vc-2 not connected (listener DISCONNECTED), datastore ds-gold 95% used of 2048 GiB');
    expect(r.items?.map((i) => [i.name, i.state])).toEqual([
      ['vc-1', State.OK],
      ['vc-2', State.CRITICAL],
      ['ds-gold', State.CRITICAL],
    ]);
  });

  it('a used figure not reported costs that figure (U), not the check; a disabled vCenter takes --disabled-state', () => {
    const r = judgeBackends([vc({ enabled: false, connected: false })], [ds({ usedMB: undefined })], { ...T, disabledState: State.WARNING });
    expect(r.state).toBe(State.WARNING);
    expect(r.metrics?.map(formatMetric)).toContain('vc-1__ds-gold__used_pct=U;80;90;0;100');
    expect(r.summary).toBe('1 vCenter, 1 datastore: vCenter vc-1 disabled');
  });
});
