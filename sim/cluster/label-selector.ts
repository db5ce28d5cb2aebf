// The label selector syntax of the Kubernetes API (`a=b,c!=d,e,!f,g in (x,y),h notin (z)`),
// for the simulated node list.

export type LabelMatcher = (labels: Record<string, string>) => boolean;

/** Parses a label selector; throws an Error whose message the API would send in a 400. */
export function parseLabelSelector(text: string): LabelMatcher {
  const tests: LabelMatcher[] = [];
  // Split on commas outside parentheses.
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    const ch = text[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if ((ch === ',' && depth === 0) || i === text.length) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  for (const part of parts) {
    if (part === '') continue;
    let m: RegExpExecArray | null;
    if ((m = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(part))) {
      const [, key, op, list] = m;
      const values = new Set(list.split(',').map((v) => v.trim()));
      tests.push(op === 'in' ? (l) => key in l && values.has(l[key]) : (l) => !(key in l) || !values.has(l[key]));
    } else if ((m = /^([\w./-]+)\s*(==|=|!=)\s*([\w.-]*)$/.exec(part))) {
      const [, key, op, value] = m;
      tests.push(op === '!=' ? (l) => l[key] !== value : (l) => key in l && l[key] === value);
    } else if ((m = /^!\s*([\w./-]+)$/.exec(part))) {
      const key = m[1];
      tests.push((l) => !(key in l));
    } else if ((m = /^([\w./-]+)$/.exec(part))) {
      const key = m[1];
      tests.push((l) => key in l);
    } else {
      throw new Error(`unable to parse requirement: found '${part}', expected: in, notin, =, ==, !=, gt, lt`);
    }
  }
  return (labels) => tests.every((t) => t(labels));
}
