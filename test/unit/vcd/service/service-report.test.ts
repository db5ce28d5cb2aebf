// check_vcd's judgement: the slowest answer against -w/-c, cells that do not serve WARNING and
// named, none serving CRITICAL, a tenant OK without cells.
import { describe, expect, it } from 'vitest';
import { formatPerfdata } from '../../../../lib/plugin/perfdata';
import { ScalarContext } from '../../../../lib/plugin/scalar-context';
import { State } from '../../../../lib/plugin/state';
import type { ServiceReading } from '../../../../lib/vcd/service/service-probe';
import { judgeService } from '../../../../lib/vcd/service/service-report';

const T = ScalarContext.fromOptions({ warning: '5', critical: '10' });
const reading = (over: Partial<ServiceReading> = {}): ServiceReading => ({
  origin: 'https://vcd.example.com',
  highest: '39.1',
  offered: 9,
  version: '34.0',
  auth: 'bearer',
  times: { versions: 0.05, login: 0.4, query: 0.02 },
  ...over,
});

describe('judgeService', () => {
  it('a tenant: OK, saying the cells need System; the times as perfdata with -w/-c', () => {
    const r = judgeService(reading(), T, 'monitor@acme');
    expect(r.state).toBe(State.OK);
    expect(r.summary).toBe('https://vcd.example.com answers: API 39.1, login 0.4s, cells need a System account');
    expect(formatPerfdata(r.metrics!)).toBe('versions_time=0.05s;5;10;0 login_time=0.4s;5;10;0 query_time=0.02s;5;10;0');
  });

  it('the slowest answer decides: a login of 6 s is WARNING, 12 s CRITICAL', () => {
    expect(judgeService(reading({ times: { versions: 0.1, login: 6, query: 0.1 } }), T, 'x')).toMatchObject({
      state: State.WARNING,
      summary: expect.stringMatching(/slowest answer 6s, login 6s/),
    });
    expect(judgeService(reading({ times: { versions: 12, login: 1, query: 0.1 } }), T, 'x').state).toBe(State.CRITICAL);
  });

  it('cells: one in maintenance WARNING, named; none serving CRITICAL; unreadable UNKNOWN', () => {
    const some = judgeService(
      reading({
        cells: [
          { name: 'c1', active: true, status: 'ACTIVE' },
          { name: 'c2', active: true, status: 'MAINTENANCE' },
        ],
      }),
      T,
      'p@System',
    );
    expect(some.state).toBe(State.WARNING);
    expect(some.summary).toMatch(/1 of 2 cells serving: c2 \(MAINTENANCE\)$/);
    expect(formatPerfdata(some.metrics!)).toMatch(/ cells=2;;;0 cells_serving=1;;;0;2$/);
    const none = judgeService(
      reading({
        cells: [
          { name: 'c1', active: false },
          { name: 'c2', status: 'QUIESCED' },
        ],
      }),
      T,
      'p@System',
    );
    expect(none.state).toBe(State.CRITICAL);
    expect(none.summary).toMatch(/no cell serving: c1 \(not active\), c2 \(QUIESCED\)$/);
    expect(judgeService(reading({ cells: [] }), T, 'p').state).toBe(State.CRITICAL);
    expect(judgeService(reading({ cells: { error: 'HTTP 403' } }), T, 'p').state).toBe(State.UNKNOWN);
  });
});
