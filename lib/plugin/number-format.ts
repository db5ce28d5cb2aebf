/**
 * The largest magnitude written in plain decimals: where toFixed would switch to exponent
 * notation. Spelling 1e308 out would be 309 digits, all but 17 of them noise.
 */
export const PLAIN_LIMIT = 1e21;

/** True for a number formatDecimal can write: finite and below PLAIN_LIMIT in magnitude. */
export function isPlainNumber(value: number): boolean {
  return Number.isFinite(value) && Math.abs(value) < PLAIN_LIMIT;
}

/**
 * Formats a number in plain decimal notation: never exponent notation (perfdata parsers and
 * humans both choke on `1e+21`), at most `maxDecimals` fraction digits, no trailing zeros, at
 * most 22 digits before the point. Throws a RangeError for what cannot be written so
 * (non-finite, or PLAIN_LIMIT and beyond): readers refuse such values before they get here.
 */
export function formatDecimal(value: number, maxDecimals = 6): string {
  if (!isPlainNumber(value)) throw new RangeError(`not a number that can be written without an exponent: ${value}`);
  if (Object.is(value, -0)) value = 0;
  let text = value.toFixed(maxDecimals);
  if (text.includes('.')) text = text.replace(/0+$/, '').replace(/\.$/, '');
  if (text === '-0') text = '0';
  return text;
}

const BINARY_UNITS = ['', 'K', 'M', 'G', 'T', 'P'];

/** Bytes in the largest binary unit that keeps the number at or above 1: `95.3 GiB`. */
export function formatBytes(bytes: number): string {
  let i = 0;
  let v = bytes;
  while (Math.abs(v) >= 1024 && i < BINARY_UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${formatDecimal(v, 0)} B` : `${formatDecimal(v, 1)} ${BINARY_UNITS[i]}iB`;
}
