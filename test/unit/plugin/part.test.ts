import { describe, expect, it } from 'vitest';
import {
  BoundedItems,
  itemOf,
  itemPart,
  itemsPart,
  measuredPart,
  nameSome,
  Named,
  part,
  partOf,
  problemPart,
  resultOf,
  resultSaying,
  sayParts,
  sayStateCounts,
  unknownPart,
  Verdict,
  withAllWell,
  withParts,
} from '../../../lib/plugin/part';
import { ScalarContext } from '../../../lib/plugin/scalar-context';
import { State } from '../../../lib/plugin/state';

describe('resultOf: the state and the status line from the parts', () => {
  it('worst wins; the problems are said first, each group in the order given', () => {
    const r = resultOf([
      part('ClusterOperator monitoring available'),
      part('2 of 9 pods not ready', State.WARNING),
      part('workload monitoring on but thanos-ruler has no ready pod', State.CRITICAL),
    ]);
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toBe('2 of 9 pods not ready; workload monitoring on but thanos-ruler has no ready pod; ClusterOperator monitoring available');
  });

  it('no parts: OK with nothing to say; a part without words sets its state but is not said', () => {
    expect(resultOf([])).toMatchObject({ state: State.OK, summary: '' });
    expect(resultOf([{ state: State.UNKNOWN }, part('fine')])).toMatchObject({ state: State.UNKNOWN, summary: 'fine' });
  });

  it("the long output, perfdata and notes: the result's own first, then each part's in the order given", () => {
    const r = resultOf(
      [
        { state: State.OK, text: 'a', items: [{ name: 'a', state: State.OK, text: 'a item' }], metrics: [{ label: 'a', value: 1 }], notes: ['a note'] },
        { state: State.WARNING, text: 'b', items: [{ name: 'b', state: State.WARNING, text: 'b item' }], notes: ['b note'] },
      ],
      { items: [{ name: 'own', state: State.OK, text: 'own' }], metrics: [{ label: 'own', value: 0 }], itemsLeftOut: 3 },
    );
    expect(r.items?.map((i) => i.name)).toEqual(['own', 'a', 'b']);
    expect(r.metrics?.map((m) => m.label)).toEqual(['own', 'a']);
    expect(r.notes).toEqual(['a note', 'b note']);
    expect(r.itemsLeftOut).toBe(3);
  });

  it('sayParts: worst first when the parts are peers (CRITICAL, WARNING, UNKNOWN, OK)', () => {
    expect(sayParts([part('ok'), part('unknown', State.UNKNOWN), part('crit', State.CRITICAL), part('warn', State.WARNING)], ', ', 'worst first')).toBe(
      'crit, warn, unknown, ok',
    );
  });
});

describe('resultOf in the order of the sentence', () => {
  const line = (name: string, state: State) => ({ name, state, text: name });

  it("words as given where the report's order is the sentence; the long output's problems first when asked", () => {
    const r = resultOf(
      [itemPart(line('ok', State.OK)), part('nearest expiry in 40d'), { ...part('1 CSR pending', State.WARNING), items: [line('csr', State.WARNING)] }],
      {},
      ', ',
      { words: 'as given', items: 'problems first' },
    );
    expect(r.state).toBe(State.WARNING);
    expect(r.summary).toBe('nearest expiry in 40d, 1 CSR pending');
    expect(r.items?.map((i) => i.name)).toEqual(['csr', 'ok']);
  });

  it('problemPart is said only as a problem; withAllWell says its words only when no part is named', () => {
    const fine = [problemPart('a expires in 40d', State.OK, { items: [line('a', State.OK)] })];
    expect(resultOf(withAllWell(fine, 'nearest expiry: a')).summary).toBe('nearest expiry: a');
    const late = [...fine, problemPart('b expires in 2d', State.CRITICAL)];
    expect(resultOf(withAllWell(late, 'nearest expiry: a'))).toMatchObject({ state: State.CRITICAL, summary: 'b expires in 2d' });
    expect(resultOf(withAllWell([unknownPart('c not read')], 'all well')).summary).toBe('c not read');
    expect(withAllWell(fine, undefined)).toEqual(fine);
  });

  it("itemOf: a part's line with the worst of its own state and its subchecks'", () => {
    const endpoint = { state: State.OK, text: 'readyz ok', subchecks: [{ state: State.WARNING }] };
    expect(itemOf('readyz', endpoint)).toEqual({ name: 'readyz', state: State.WARNING, text: 'readyz ok' });
  });
});

describe('resultSaying: a status line the report words, the state and the rest from the parts', () => {
  it('measured values are graphed in the order given and the worst of them is the state, the long output after the rest', () => {
    const ctx = ScalarContext.fromOptions({ warning: '5', critical: '10' });
    const r = resultSaying(
      '2 snapshots on vm-1',
      [measuredPart(ctx.measure('snapshots', 2)), measuredPart(ctx.measure('age', 7)), itemPart({ name: 'b', state: State.OK, text: 'b' })],
      {
        items: [{ name: 'a', state: State.OK, text: 'a' }],
      },
    );
    expect(r.state).toBe(State.WARNING);
    expect(r.summary).toBe('2 snapshots on vm-1');
    expect(r.metrics?.map((m) => [m.label, m.value])).toEqual([
      ['snapshots', 2],
      ['age', 7],
    ]);
    expect(r.items?.map((i) => i.name)).toEqual(['a', 'b']);
  });

  it('a measured part says nothing on the status line', () => {
    const ctx = ScalarContext.fromOptions({ warning: '5', critical: '10' });
    expect(measuredPart(ctx.measure('x', 11)).text).toBeUndefined();
    expect(resultSaying('s', [measuredPart(ctx.measure('x', 11))]).state).toBe(State.CRITICAL);
  });
});

describe('partOf and itemsPart: a part standing for others', () => {
  it('partOf takes the worst state of what it stands for and keeps its words; none: OK', () => {
    const p = partOf('2 alerts firing', [{ state: State.WARNING }, { state: State.CRITICAL }, { state: State.OK }], { notes: ['n'] });
    expect(p).toEqual({ state: State.CRITICAL, text: '2 alerts firing', notes: ['n'] });
    expect(partOf(undefined, []).state).toBe(State.OK);
  });

  it('itemsPart is its lines in the order given, in the worst of their states', () => {
    const items = [
      { name: 'a', state: State.OK, text: 'a' },
      { name: 'b', state: State.WARNING, text: 'b' },
    ];
    const p = itemsPart(undefined, items, { metrics: [] });
    expect(p.state).toBe(State.WARNING);
    expect(p.items).toEqual(items);
    expect(resultOf([p]).summary).toBe('');
    expect(resultOf([p]).items?.map((i) => i.name)).toEqual(['a', 'b']);
  });
});

describe('withParts: parts joined to a finished result', () => {
  it("the worst of its state and theirs; their words after its summary in the order given, even the OK ones' words", () => {
    const r = withParts({ state: State.WARNING, summary: '1 of 3 nodes failing', metrics: [{ label: 'nodes', value: 3 }] }, [
      { state: State.OK, text: "kubelets off the API server's v1.29: v1.28 on worker-2", metrics: [{ label: 'kubelet_minor_versions', value: 2 }] },
      { state: State.CRITICAL, text: '1 node near the pod limit' },
    ]);
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toBe("1 of 3 nodes failing; kubelets off the API server's v1.29: v1.28 on worker-2; 1 node near the pod limit");
    expect(r.metrics?.map((m) => m.label)).toEqual(['nodes', 'kubelet_minor_versions']);
  });

  it('no parts: the result as it was', () => {
    const result = { state: State.OK, summary: 'fine' };
    expect(withParts(result, [])).toBe(result);
  });
});

describe('Verdict: what is said of one object', () => {
  it('its state is the worst of its parts; its line says them all, its problem only the ones not OK', () => {
    const v = new Verdict('datastore ds-gold (vCenter vc-1)')
      .add('82.5% used of 2 TiB', State.WARNING)
      .add('120% provisioned', State.CRITICAL)
      .add('not numbers: x');
    expect(v.state).toBe(State.CRITICAL);
    expect(v.line).toBe('datastore ds-gold (vCenter vc-1): 82.5% used of 2 TiB, 120% provisioned, not numbers: x');
    expect(v.problem('datastore ds-gold')).toBe('datastore ds-gold 82.5% used of 2 TiB, 120% provisioned');
    expect(v.item('ds-gold')).toEqual({ name: 'ds-gold', state: State.CRITICAL, text: v.line });
  });

  it('worst first when asked; an unknown figure sets no state, is a problem only when asked, and is told', () => {
    const v = new Verdict('pvdc-1', 'worst first').add('2 org VDCs').addUnknown('memory reserved unknown (not read)').add('disabled', State.CRITICAL);
    expect(v.state).toBe(State.CRITICAL);
    expect(v.line).toBe('pvdc-1: disabled, 2 org VDCs, memory reserved unknown (not read)');
    expect(v.hasUnknown).toBe(true);
    expect(v.problem()).toBe('pvdc-1 disabled');
    expect(v.problem('pvdc-1', true)).toBe('pvdc-1 disabled, memory reserved unknown (not read)');
    expect(new Verdict('ok').add('fine').problem()).toBeUndefined();
  });

  it('unknownPart is OK but named', () => {
    expect(unknownPart('x')).toEqual({ state: State.OK, text: 'x', unknown: true });
  });
});

describe('wording helpers', () => {
  it('nameSome and Named: the first few, and how many more', () => {
    expect(nameSome(['a', 'b', 'c'], 2)).toBe('a, b and 1 more');
    expect(nameSome(['a', 'b'], 2)).toBe('a, b');
    const named = new Named(2);
    for (const t of ['a', undefined, 'b', 'c', 'd']) named.add(t);
    expect(named.count).toBe(4);
    expect(named.said('; ')).toBe('a; b … 2 more');
  });

  it('sayStateCounts: the states asked for, in that order, those with none left out', () => {
    const s = [{ state: State.WARNING }, { state: State.CRITICAL }, { state: State.WARNING }, { state: State.OK }];
    expect(sayStateCounts(s, [State.CRITICAL, State.WARNING, State.UNKNOWN])).toBe('1 critical, 2 warning');
  });
});

describe('BoundedItems', () => {
  it('keeps at most max lines, a problem taking the place of the last OK line; the state counts every line given', () => {
    const items = new BoundedItems(2);
    items.add({ name: 'a', state: State.OK, text: 'a' });
    items.add({ name: 'b', state: State.OK, text: 'b' });
    items.add({ name: 'c', state: State.OK, text: 'c' });
    items.add({ name: 'd', state: State.WARNING, text: 'd' });
    expect(items.items().map((i) => i.name)).toEqual(['a', 'd']);
    expect(items.leftOut).toBe(2);
    expect(items.state).toBe(State.WARNING);
  });
});
