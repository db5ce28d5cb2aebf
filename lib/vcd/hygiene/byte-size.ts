import type { ValueParser } from '../../plugin/range';

const BINARY: Record<string, number> = { '': 1, b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, tib: 1024 ** 4 };
const DECIMAL: Record<string, number> = { kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12 };

/** What --help says of the sizes this parser reads. */
export const BYTE_SIZE_HELP = 'bytes, or with a unit: KiB, MiB, GiB, TiB (binary, 1024) or KB, MB, GB, TB (decimal, 1000), e.g. 50GiB';

/**
 * A size in bytes: `1024`, `50GiB` (binary), `50GB` (decimal), as the range syntax's values.
 * Bare K/M/G/T are refused: they are read both ways in the wild, and a threshold must not guess.
 */
export const parseByteSize: ValueParser = (text) => {
  const m = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*([a-z]*)$/i.exec(text.trim());
  if (!m) return undefined;
  const unit = m[2].toLowerCase();
  const factor = BINARY[unit] ?? DECIMAL[unit];
  return factor === undefined ? undefined : Number(m[1]) * factor;
};
