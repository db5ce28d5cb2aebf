// A document that is JSON but breaks the API's own shape (a name that is not a string,
// conditions that are not a list): no API server sends that, so it is refused with the first
// bad field named, never given a verdict.

/** A field of a response that does not have the API's shape; `field` is a path such as `items[3].metadata.name`. */
export class ShapeError extends Error {
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${field} ${problem}`);
  }
}

/** What a JSON value is, in words: "a string", "an array", "null"... */
export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'boolean') return 'a boolean';
  return 'a number';
}
