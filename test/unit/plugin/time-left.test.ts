import { describe, expect, it } from 'vitest';
import { State } from '../../../lib/plugin/state';
import { DAYS, SECONDS, TimeLeft } from '../../../lib/plugin/time-left';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-26T12:00:00Z');

describe('TimeLeft: -w/-c on the time left before something expires', () => {
  const days = new TimeLeft({ warning: 30 * 86_400, critical: 7 * 86_400 }, DAYS);

  it('alerts below the durations, as `N:` ranges in its unit (hours keep four decimals of a day)', () => {
    expect(days.warning?.text).toBe('30:');
    expect(days.critical?.text).toBe('7:');
    expect(new TimeLeft({ warning: 36 * 3600, critical: 3600 }, DAYS).critical?.text).toBe('0.0417:');
    expect(new TimeLeft({ warning: 604_800, critical: 172_800 }, SECONDS).warning?.text).toBe('604800:');
  });

  it('the time left is cut, not rounded: 4d 23h 59m is 4.99 days, never the 5 the words deny', () => {
    expect(days.left(NOW + 5 * DAY - 60_000, NOW)).toBe(4.99);
    expect(new TimeLeft({ warning: 10, critical: 5 }, SECONDS).left(NOW + 1999, NOW)).toBe(1);
  });

  it('state and perfdata from one call: OK, WARNING below -w, CRITICAL below -c, in the unit graphed', () => {
    expect(days.measure('cert_days_left', 200)).toEqual({
      state: State.OK,
      metric: { label: 'cert_days_left', value: 200, warning: days.warning, critical: days.critical },
    });
    expect(days.measure('cert_days_left', 12).state).toBe(State.WARNING);
    expect(days.measure('cert_days_left', 3).state).toBe(State.CRITICAL);
    const lease = new TimeLeft({ warning: 604_800, critical: 172_800 }, SECONDS);
    expect(lease.measure('lease_runtime', 3600).metric).toMatchObject({ value: 3600, uom: 's' });
  });

  it('none left is CRITICAL whatever -c says', () => {
    const lax = new TimeLeft({ warning: 0, critical: 0 }, SECONDS);
    expect(lax.measure('lease_storage', 1).state).toBe(State.OK);
    expect(lax.measure('lease_storage', 0).state).toBe(State.CRITICAL);
    expect(lax.measure('lease_storage', -86_400).state).toBe(State.CRITICAL);
  });

  it('a list: each judged, the nearest graphed', () => {
    const m = days.measureEach('cert_days_left', [200, undefined, 12, 3000], 'lowest', days.shape);
    expect(m.states).toEqual([State.OK, undefined, State.WARNING, State.OK]);
    expect(m.graphed).toBe(2);
    expect(m.metric).toMatchObject({ label: 'cert_days_left', value: 12 });
  });
});
