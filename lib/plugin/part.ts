// A check's result, made in one place. A report hands over parts (what it judged, each with a
// state and its words); the state (worst wins), the order of the words (problems first) and the
// status line they make are decided here, as a summary is worded from its subchecks, so that
// no report reduces, orders or words states itself.
import type { Metric } from './perfdata';
import { MAX_ITEMS, type Item, type Result } from './result';
import type { Measurement } from './scalar-context';
import { State, stateName } from './state';
import { problemsFirst, worstFirst, worstOf, type Subcheck } from './subcheck';

/**
 * One thing a check judged: its state, its words for the status line (absent: it is not said
 * there), and what it adds to the long output, the perfdata and the notes.
 */
export interface Part extends Subcheck {
  readonly state: State;
  readonly text?: string;
  /** A figure the server did not give: said with the problems, but it sets no state. */
  readonly unknown?: boolean;
  readonly items?: readonly Item[];
  readonly metrics?: readonly Metric[];
  readonly notes?: readonly string[];
}

/** A part of `text` in `state` (OK unless given). */
export function part(text: string, state: State = State.OK): Part {
  return { state, text };
}

/** A figure the server did not give, said as `text`: OK, but named with the problems. */
export function unknownPart(text: string): Part {
  return { state: State.OK, text, unknown: true };
}

/** A measured value as a part: its state and its perfdata, said nowhere on the status line. */
export function measuredPart(measurement: Measurement): Part {
  return { state: measurement.state, metrics: [measurement.metric] };
}

/** Whether a part is worth naming on a status line that names only problems: not OK, or a figure unknown. */
export function isNamed(p: Part): boolean {
  return p.unknown === true || worstOf([p]) !== State.OK;
}

/**
 * A part that is one line of long output, said nowhere on the status line: its state counts.
 */
export function itemPart(item: Item): Part {
  return { state: item.state, items: [item] };
}

/** A part of `text` (absent: not said on the status line) that stands for `subchecks` (alerts, nodes): its state is the worst of theirs. */
export function partOf(text: string | undefined, subchecks: readonly Subcheck[], more: Omit<Part, 'state' | 'text'> = {}): Part {
  return { ...more, state: worstOf(subchecks), text };
}

/**
 * A part that is lines of long output (`items`, in the order given) and, when given, words for
 * the status line: its state is the worst of the lines'.
 */
export function itemsPart(text: string | undefined, items: readonly Item[], more: Omit<Part, 'state' | 'text' | 'items'> = {}): Part {
  return partOf(text, items, { ...more, items });
}

/** A part said on the status line only when it is a problem (not OK); its long output, perfdata and notes count either way. */
export function problemPart(text: string, state: State, more: Omit<Part, 'state' | 'text'> = {}): Part {
  return { ...more, state, text: worstOf([{ state }]) === State.OK ? undefined : text };
}

/** The parts, and after them a part of `text` when none of them is named (no problem, no unknown figure): what is said when all is well. */
export function withAllWell(parts: readonly Part[], text: string | undefined): Part[] {
  return text === undefined || parts.some(isNamed) ? [...parts] : [...parts, part(text)];
}

/** The long-output line of a part: `name`, its state (the worst of its own and its subchecks'), its words. */
export function itemOf(name: string, p: Part): Item {
  return { name, state: worstOf([p]), text: p.text ?? '' };
}

/**
 * How the words or lines of parts follow each other: the problems first, each group as given
 * (the default), the worst first, or as given where the report's order is the sentence.
 */
export type Order = 'problems first' | 'worst first' | 'as given';

/** The parts in the order output says them. */
export function ordered<T extends Part>(parts: readonly T[], order: Order = 'problems first'): T[] {
  return order === 'worst first' ? worstFirst(parts) : order === 'as given' ? [...parts] : problemsFirst(parts);
}

/** The order of a result's status line (`words`, problems first unless given) and long output (`items`, as given unless given). */
export interface ResultOrder {
  readonly words?: Order;
  readonly items?: Order;
}

/** The words of the parts that have words, in output order, joined by `separator` (`a; b`). */
export function sayParts(parts: readonly Part[], separator = '; ', order: Order = 'problems first'): string {
  return ordered(parts, order)
    .flatMap((p) => (p.text === undefined ? [] : [p.text]))
    .join(separator);
}

/**
 * The result the parts make: the worst state, the status line of their words (problems first,
 * `separator` between them), their long output, perfdata and notes each in the order given,
 * after what `rest` brings of its own. `order` keeps the words as given where the report's
 * order is the sentence, or puts the problems' lines first.
 */
export function resultOf(parts: readonly Part[], rest: Omit<Result, 'state' | 'summary'> = {}, separator = '; ', order: ResultOrder = {}): Result {
  const items = [...(rest.items ?? []), ...parts.flatMap((p) => p.items ?? [])];
  return {
    ...rest,
    state: worstOf(parts),
    summary: sayParts(parts, separator, order.words),
    items: ordered(items, order.items ?? 'as given'),
    metrics: [...(rest.metrics ?? []), ...parts.flatMap((p) => p.metrics ?? [])],
    notes: [...(rest.notes ?? []), ...parts.flatMap((p) => p.notes ?? [])],
  };
}

/**
 * The result the parts make under a status line the report words as one sentence of its
 * figures (`3 snapshots on vm-1, oldest 2 d old`): the worst state, their long output,
 * perfdata and notes after `rest`'s, as resultOf makes them.
 */
export function resultSaying(summary: string, parts: readonly Part[], rest: Omit<Result, 'state' | 'summary'> = {}): Result {
  return { ...resultOf(parts, rest), summary };
}

/**
 * A result with parts joined to it: the worst of its state and theirs, their words after its
 * summary, their long output, perfdata and notes after its own.
 */
export function withParts(result: Result, parts: readonly Part[]): Result {
  if (parts.length === 0) return result;
  const said = parts.flatMap((p) => (p.text === undefined ? [] : [p.text]));
  const joined = resultOf(parts, result);
  return { ...joined, state: worstOf([result, ...parts]), summary: [result.summary, ...said].join('; ') };
}

/**
 * What is said of one object (a provider VDC, a datastore, a VDC): its parts, each with the
 * state it gives; the object's state is the worst of theirs. Its long-output line is
 * `head: a, b`; what the status line says of it, its problems (`short a`).
 */
export class Verdict implements Subcheck {
  private readonly said: Part[] = [];

  constructor(
    readonly head: string,
    private readonly order: Order = 'as given',
  ) {}

  /** A part of the object, in `state` (OK unless given). */
  add(text: string, state: State = State.OK): this {
    this.said.push(part(text, state));
    return this;
  }

  /** A figure of the object the server did not give. */
  addUnknown(text: string): this {
    this.said.push(unknownPart(text));
    return this;
  }

  /** The parts in the order the line says them. */
  get subchecks(): readonly Part[] {
    return ordered(this.said, this.order);
  }

  get state(): State {
    return worstOf(this.said);
  }

  /** Whether a figure of the object is unknown. */
  get hasUnknown(): boolean {
    return this.said.some((p) => p.unknown === true);
  }

  /** Everything said of the object: `head: a, b`. */
  get line(): string {
    return `${this.head}: ${this.subchecks.map((p) => p.text).join(', ')}`;
  }

  /** The object's problems as the status line names them (`short a, b`), unknown figures too when `withUnknown`; undefined for none. */
  problem(short: string = this.head, withUnknown = false): string | undefined {
    const wrong = this.subchecks.filter((p) => (withUnknown ? isNamed(p) : worstOf([p]) !== State.OK));
    return wrong.length === 0 ? undefined : `${short} ${wrong.map((p) => p.text).join(', ')}`;
  }

  /** The object's line of long output. */
  item(name: string): Item {
    return { name, state: this.state, text: this.line };
  }
}

/** Texts named on a status line: the first `max`, and how many more. */
export class Named {
  readonly first: string[] = [];
  count = 0;

  constructor(private readonly max: number) {}

  add(text: string | undefined): void {
    if (text === undefined) return;
    if (this.count++ < this.max) this.first.push(text);
  }

  /** `a, b … 3 more` with `separator` between the texts. */
  said(separator: string): string {
    return this.first.join(separator) + (this.count > this.max ? ` … ${this.count - this.max} more` : '');
  }
}

/** How many of the subchecks are in each of `states`, in that order, those with none left out: `2 critical, 1 warning`. */
export function sayStateCounts(subchecks: readonly Subcheck[], states: readonly State[]): string {
  return states
    .map((s) => [s, subchecks.filter((c) => worstOf([c]) === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${stateName(s).toLowerCase()}`)
    .join(', ');
}

/** `a, b, c, d, e and 3 more`: the first `max` texts, and how many are not named. */
export function nameSome(texts: readonly string[], max: number, separator = ', '): string {
  return texts.slice(0, max).join(separator) + (texts.length > max ? ` and ${texts.length - max} more` : '');
}

/**
 * The long output's lines, at most what the runtime prints (MAX_ITEMS, the rest counted in its
 * "… N more"): in the order given, a problem taking the place of the last line that is OK
 * once they are that many, so that no problem is left out for an OK line.
 */
export class BoundedItems {
  readonly kept: (Item | undefined)[] = [];
  private readonly okAt: number[] = [];
  private worst: State = State.OK;
  leftOut = 0;

  constructor(private readonly max: number = MAX_ITEMS) {}

  add(item: Item): void {
    this.worst = worstOf([{ state: this.worst }, item]);
    if (this.kept.length < this.max) {
      if (item.state === State.OK) this.okAt.push(this.kept.length);
      this.kept.push(item);
      return;
    }
    this.leftOut++;
    const ok = item.state === State.OK ? undefined : this.okAt.pop();
    if (ok === undefined) return;
    this.kept[ok] = undefined;
    this.kept.push(item);
  }

  items(): Item[] {
    return this.kept.filter((i): i is Item => i !== undefined);
  }

  /** The state of the lines given, kept or not: the worst. */
  get state(): State {
    return this.worst;
  }
}
