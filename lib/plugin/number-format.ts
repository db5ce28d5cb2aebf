/**
 * Formats a number in plain decimal notation: never exponent notation (perfdata parsers and
 * humans both choke on `1e+21`), at most `maxDecimals` fraction digits, no trailing zeros.
 */
export function formatDecimal(value: number, maxDecimals = 6): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  if (Object.is(value, -0)) value = 0;
  let text = value.toFixed(maxDecimals);
  if (text.includes('e')) {
    // toFixed falls back to exponent notation at 1e21 and above; spell the integer out.
    text = BigInt(Math.round(value)).toString();
  }
  if (text.includes('.')) text = text.replace(/0+$/, '').replace(/\.$/, '');
  if (text === '-0') text = '0';
  return text;
}
