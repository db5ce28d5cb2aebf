import { describe, expect, it } from 'vitest';
import { renderJson, renderNagios, resultFromItems } from '../../../lib/plugin/result';
import { parseRange } from '../../../lib/plugin/range';
import { State } from '../../../lib/plugin/state';

describe('render', () => {
  const result = resultFromItems(
    '1 of 2 nodes failing: worker-2 (Ready=Unknown)',
    [
      { name: 'worker-1', state: State.OK, text: 'worker-1: healthy' },
      { name: 'worker-2', state: State.CRITICAL, text: 'worker-2: Ready=Unknown' },
    ],
    [{ label: 'failing', value: 1, critical: parseRange('0', '-c'), min: 0, max: 2 }],
  );

  it('takes the worst item state', () => expect(result.state).toBe(State.CRITICAL));

  it('renders the plugin line and long output', () => {
    expect(renderNagios('NODES', result)).toBe(
      'NODES CRITICAL - 1 of 2 nodes failing: worker-2 (Ready=Unknown) | failing=1;;0;0;2\n[OK] worker-1: healthy\n[CRITICAL] worker-2: Ready=Unknown\n',
    );
  });

  it('keeps a server message on one line and out of the perfdata', () => {
    expect(renderNagios('X', { state: State.UNKNOWN, summary: 'bad\nthing | here' })).toBe('X UNKNOWN - bad thing / here\n');
  });

  it('renders one JSON object', () => {
    const doc = JSON.parse(renderJson('NODES', result));
    expect(doc).toMatchObject({ name: 'NODES', state: 'CRITICAL', code: 2, summary: expect.stringContaining('worker-2') });
    expect(doc.items).toHaveLength(2);
    expect(doc.metrics[0]).toEqual({ label: 'failing', value: 1, uom: '', warning: null, critical: '0', min: 0, max: 2 });
  });
});
