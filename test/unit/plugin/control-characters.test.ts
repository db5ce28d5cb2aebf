// The one rule for control and line-separator characters in text from outside.
import { describe, expect, it } from 'vitest';
import { blankControlCharacters, hasControlCharacters } from '../../../lib/plugin/control-characters';

describe('control and line-separator characters', () => {
  it.each([
    ['NUL', '\u0000'],
    ['TAB', '\t'],
    ['LF', '\n'],
    ['VT', '\u000b'],
    ['FF', '\f'],
    ['CR', '\r'],
    ['ESC', '\u001b'],
    ['US (last C0)', '\u001f'],
    ['DEL', '\u007f'],
    ['PAD (first C1)', '\u0080'],
    ['NEL', '\u0085'],
    ['APC (last C1)', '\u009f'],
    ['LINE SEPARATOR', '\u2028'],
    ['PARAGRAPH SEPARATOR', '\u2029'],
  ])('%s is refused, and blanked to one space', (_, c) => {
    expect(hasControlCharacters(`a${c}b`)).toBe(true);
    expect(blankControlCharacters(`a${c}b`)).toBe('a b');
  });
  it.each([
    ['SPACE', ' '],
    ['TILDE', '~'],
    ['NO-BREAK SPACE', '\u00a0'],
    ['LEFT-TO-RIGHT EMBEDDING', '\u202a'],
    ['HYPHENATION POINT', '\u2027'],
    ['a letter outside the BMP', '\u{1f600}'],
  ])('%s is ordinary text', (_, c) => {
    expect(hasControlCharacters(`a${c}b`)).toBe(false);
    expect(blankControlCharacters(`a${c}b`)).toBe(`a${c}b`);
  });
  it('a run of them is one space', () => {
    expect(blankControlCharacters('web\r\n\u0000\u2028\u0085-01')).toBe('web -01');
  });
});
