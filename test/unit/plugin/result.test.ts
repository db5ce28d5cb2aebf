import { describe, expect, it } from 'vitest';
import { MAX_ITEM_CHARS, MAX_ITEMS, MAX_SUMMARY_CHARS, renderJson, renderNagios, resultFromItems } from '../../../lib/plugin/result';
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

describe('what reaches the monitoring engine from server text', () => {
  it('says `;` otherwise: Nagios rewrites it to `:` in the status line', () => {
    expect(renderNagios('X', { state: State.UNKNOWN, summary: 'connection refused by h:1; check the port' })).toBe(
      'X UNKNOWN - connection refused by h:1, check the port\n',
    );
    expect(renderNagios('X', { state: State.OK, summary: 'ok', items: [{ name: 'a', state: State.OK, text: 'a; b' }] })).toBe('X OK - ok\n[OK] a, b\n');
  });
  it('keeps perfdata separators', () => {
    expect(renderNagios('X', { state: State.OK, summary: 'a;b', metrics: [{ label: 'v', value: 1, min: 0, max: 2 }] })).toBe('X OK - a, b | v=1;;;0;2\n');
  });
  it.each([
    ['NUL', 'a\u0000b', 'a b'],
    ['VT', 'a\u000bb', 'a b'],
    ['FF', 'a\u000cb', 'a b'],
    ['NEL', 'a\u0085b', 'a b'],
    ['LINE SEPARATOR', 'a\u2028b', 'a b'],
    ['PARAGRAPH SEPARATOR', 'a\u2029b', 'a b'],
    ['ESC (terminal escapes)', 'a\u001b[31mb', 'a [31mb'],
    ['DEL and a C1 control', 'a\u007f\u009bb', 'a b'],
    ['CR LF', 'a\r\nb', 'a b'],
  ])('makes %s in server text a space', (_, text, want) => {
    expect(renderNagios('X', { state: State.UNKNOWN, summary: text, items: [{ name: 'n', state: State.OK, text }] })).toBe(
      `X UNKNOWN - ${want}\n[OK] ${want}\n`,
    );
    const doc = JSON.parse(renderJson('X', { state: State.UNKNOWN, summary: text, items: [{ name: 'n', state: State.OK, text }] }));
    expect(doc.summary).toBe(want);
    expect(doc.items[0].text).toBe(want);
  });
  it('caps the status line and long-output lines, saying how much was cut', () => {
    const out = renderNagios('X', { state: State.UNKNOWN, summary: 'e'.repeat(30_000), items: [{ name: 'n', state: State.OK, text: 'x'.repeat(10_000) }] });
    const [first, second] = out.split('\n');
    expect(first.length).toBeLessThanOrEqual('X UNKNOWN - '.length + MAX_SUMMARY_CHARS);
    expect(first).toMatch(/e… \(\d+ more characters\)$/);
    expect(Number(/(\d+) more characters\)$/.exec(first)![1]) + first.slice(first.indexOf(' - ') + 3, first.indexOf('…')).length).toBe(30_000);
    expect(second.length).toBeLessThanOrEqual('[OK] '.length + MAX_ITEM_CHARS);
    expect(second).toMatch(/x… \(\d+ more characters\)$/);
  });
  it('caps the number of long-output lines with one "… N more" line', () => {
    const items = Array.from({ length: MAX_ITEMS + 10 }, (_, i) => ({ name: `n${i}`, state: State.OK, text: `n${i}` }));
    const lines = renderNagios('X', { state: State.OK, summary: 'many', items }).trimEnd().split('\n');
    expect(lines).toHaveLength(1 + MAX_ITEMS);
    expect(lines[lines.length - 1]).toBe('… 11 more lines');
    const doc = JSON.parse(renderJson('X', { state: State.OK, summary: 'many', items }));
    expect(doc.items).toHaveLength(MAX_ITEMS - 1);
    expect(doc.more).toBe(11);
  });
});
