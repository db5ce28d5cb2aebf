import { describe, expect, it } from 'vitest';
import { State } from '../../../lib/plugin/state';
import { healthyOf, problemsFirst, problemsOf, stateOf, worstFirst, worstOf, type Subcheck } from '../../../lib/plugin/subcheck';

const { OK, WARNING, CRITICAL, UNKNOWN } = State;

/** A named subcheck of its own state. */
const sub = (text: string, state?: State, subchecks?: Subcheck[]) => ({ text, state, subchecks });
const texts = (subs: ReadonlyArray<{ text: string }>) => subs.map((s) => s.text);

describe('stateOf: worst wins, to any depth', () => {
  const table: Array<[string, Subcheck, State]> = [
    ['no state is OK', {}, OK],
    ['its own state', { state: WARNING }, WARNING],
    ['OK over no subchecks', { state: OK, subchecks: [] }, OK],
    ['a subcheck worse than its own', { state: WARNING, subchecks: [{ state: CRITICAL }] }, CRITICAL],
    ['its own worse than a subcheck', { state: CRITICAL, subchecks: [{ state: WARNING }] }, CRITICAL],
    ['a problem outranks UNKNOWN', { subchecks: [{ state: UNKNOWN }, { state: WARNING }] }, WARNING],
    ['UNKNOWN outranks OK', { subchecks: [{ state: OK }, { state: UNKNOWN }] }, UNKNOWN],
    ['a grandchild counts', { subchecks: [{ subchecks: [{ state: OK }, { subchecks: [{ state: CRITICAL }] }] }] }, CRITICAL],
  ];
  it.each(table)('%s', (_, subcheck, expected) => expect(stateOf(subcheck)).toBe(expected));
});

describe('worstOf', () => {
  const table: Array<[State[], State]> = [
    [[], OK],
    [[OK, OK], OK],
    [[OK, UNKNOWN], UNKNOWN],
    [[UNKNOWN, WARNING], WARNING],
    [[WARNING, CRITICAL, UNKNOWN], CRITICAL],
  ];
  it.each(table)('%j → %s', (states, expected) => expect(worstOf(states.map((state) => ({ state })))).toBe(expected));
  it('takes each subcheck by its derived state', () => expect(worstOf([{ state: OK }, { subchecks: [{ state: CRITICAL }] }])).toBe(CRITICAL));
});

describe('the order of output', () => {
  const table: Array<[string, Array<[string, State | undefined]>, string[], string[]]> = [
    // [case, subchecks, problemsFirst, worstFirst]
    [
      'all OK keep their order',
      [
        ['a', OK],
        ['b', undefined],
        ['c', OK],
      ],
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
    ],
    [
      'problems lead, each group as given',
      [
        ['ok1', OK],
        ['warn', WARNING],
        ['ok2', OK],
        ['crit', CRITICAL],
      ],
      ['warn', 'crit', 'ok1', 'ok2'],
      ['crit', 'warn', 'ok1', 'ok2'],
    ],
    [
      'UNKNOWN is a problem, ranked below WARNING',
      [
        ['unknown', UNKNOWN],
        ['ok', OK],
        ['warn', WARNING],
      ],
      ['unknown', 'warn', 'ok'],
      ['warn', 'unknown', 'ok'],
    ],
    [
      'equals stay in the order given',
      [
        ['c1', CRITICAL],
        ['w1', WARNING],
        ['c2', CRITICAL],
        ['w2', WARNING],
      ],
      ['c1', 'w1', 'c2', 'w2'],
      ['c1', 'c2', 'w1', 'w2'],
    ],
  ];
  it.each(table)('%s', (_, given, problems, worst) => {
    const subs = given.map(([text, state]) => sub(text, state));
    expect(texts(problemsFirst(subs))).toEqual(problems);
    expect(texts(worstFirst(subs))).toEqual(worst);
    expect(texts(subs)).toEqual(given.map(([text]) => text));
  });

  it('orders by the state a subcheck takes from its subchecks', () => {
    const subs = [sub('vdc-a', undefined, [sub('cpu', OK)]), sub('vdc-b', undefined, [sub('memory', CRITICAL)])];
    expect(texts(problemsFirst(subs))).toEqual(['vdc-b', 'vdc-a']);
    expect(texts(worstFirst(subs))).toEqual(['vdc-b', 'vdc-a']);
    expect(texts(problemsOf(subs))).toEqual(['vdc-b']);
    expect(texts(healthyOf(subs))).toEqual(['vdc-a']);
  });
});
