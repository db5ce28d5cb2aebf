// Perfdata labels made from names from outside (a VDC, a storage policy, an organisation, a
// lease): unique within one output and stable from run to run, whatever the names.
//
// A name that is already a clean label part (lower-case letters and digits in words joined by
// single `_` or `-`, at most 40 characters: `acme-prod`, `gold_ssd`) is its own part. Any other
// name (upper case, spaces, other scripts, too long) loses information when sanitised, so its part is the
// sanitised name plus `_h` and 8 hex digits of the SHA-256 of the raw name: two names that
// sanitise alike ("x storage", "X_Storage") still differ, and a name's part never depends on
// the other names of the run. A clean name that looks like such a part ends hashed too, so the
// two kinds never meet. Parts never hold `__`, so a label joins its parts and the measure with
// `__` and can be read back: equal labels mean equal names and measure. What is left (a
// deliberate hash collision, one object listed twice) is caught by the builder of one output,
// which never gives a label twice.
import { createHash } from 'node:crypto';

/** The most characters of a name kept readable in its part. */
const MAX_PART_CHARS = 40;
const CLEAN_PART = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;
/** A measure of a plugin: a fixed word such as `cpu_pct`. */
const MEASURE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
const HASHED_PART = /(?:^|_)h[0-9a-f]{8}$/;

/** A name sanitised: lower-case letters, digits, `-` and single `_`, at most 40 characters ('' when nothing is left). */
function sanitised(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '_')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, MAX_PART_CHARS)
    .replace(/[-_]+$/, '');
}

/**
 * The label part of one name: the name itself when it is a clean part, else its sanitised
 * form and `_h` + 8 hex digits of the SHA-256 of the raw name (`h` + the digits when nothing
 * readable is left). No tenant text can quote, split or end the perfdata through it.
 */
export function namePart(name: string): string {
  if (name.length <= MAX_PART_CHARS && CLEAN_PART.test(name) && !HASHED_PART.test(name)) return name;
  const hash = `h${createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 8)}`;
  const kept = sanitised(name);
  return kept === '' ? hash : `${kept}_${hash}`;
}

/**
 * The labels of one output. `label(names, measure)` joins the parts of the names (outermost
 * first: the organisation, the VDC, the policy) and the measure (a fixed word of the plugin,
 * `cpu_pct`, `storage`) with `__`: `acme__gold_h1a2b3c4d__storage_pct`. A label already
 * given in this output is never given again (a counter is added: `…__2`).
 */
export class PerfdataLabels {
  private readonly given = new Set<string>();
  /** The next counter to try for a label already given: n names of one object cost n tries, not n². */
  private readonly counters = new Map<string, number>();
  /** The part of each name met: one object gives several labels, and a hashed part costs a SHA-256. */
  private readonly parts = new Map<string, string>();

  label(names: readonly string[], measure: string): string {
    if (!MEASURE.test(measure)) throw new Error(`perfdata measure ${JSON.stringify(measure)} is not a clean word`);
    const wanted = [...names.map((name) => this.part(name)), measure].join('__');
    let label = wanted;
    if (this.given.has(label)) {
      let n = this.counters.get(wanted) ?? 2;
      for (label = `${wanted}__${n}`; this.given.has(label); label = `${wanted}__${n}`) n++;
      this.counters.set(wanted, n + 1);
    }
    this.given.add(label);
    return label;
  }

  private part(name: string): string {
    let part = this.parts.get(name);
    if (part === undefined) {
      part = namePart(name);
      this.parts.set(name, part);
    }
    return part;
  }
}
