import { describe, expect, it } from 'vitest';
import { parseState, State, stateName, worstState } from '../../../lib/plugin/state';

describe('worstState', () => {
  it('ranks CRITICAL > WARNING > UNKNOWN > OK', () => {
    expect(worstState([])).toBe(State.OK);
    expect(worstState([State.OK, State.UNKNOWN])).toBe(State.UNKNOWN);
    expect(worstState([State.UNKNOWN, State.WARNING])).toBe(State.WARNING);
    expect(worstState([State.WARNING, State.CRITICAL, State.UNKNOWN])).toBe(State.CRITICAL);
  });
  it('names and parses states', () => {
    expect(stateName(State.CRITICAL)).toBe('CRITICAL');
    expect(parseState('warning')).toBe(State.WARNING);
    expect(parseState('2')).toBe(State.CRITICAL);
    expect(parseState('BAD')).toBeUndefined();
  });
});
