// The VM facts in check_nodes' result: appended to each failing node's line, named after the
// summary, and never a state of their own (the nodes' verdict is the check's).
import { formatDecimal } from '../../plugin/number-format';
import { part, withParts } from '../../plugin/part';
import type { Result } from '../../plugin/result';
import { State } from '../../plugin/state';
import type { NodeVmFact } from './node-vm-lookup';

/** Nodes named with their VM on the status line; every node's own line has it. */
const NAMED = 5;

const pct = (v: number | undefined) => (v === undefined ? '?' : `${formatDecimal(v, 1)}%`);

/** The fact as the node's line says it: `VM worker-1 (vm-…) powered off`. */
export function describeVmFact(fact: NodeVmFact): string {
  if (fact.kind === 'none') return `no VM found (${fact.how})`;
  const vm = `VM ${fact.name} (${fact.id})`;
  if (fact.power !== 'running') return `${vm} ${fact.power}`;
  if (fact.problem !== undefined) return `${vm} running, no metrics: ${fact.problem}`;
  return `${vm} running, cpu ${pct(fact.cpu)}, mem ${pct(fact.mem)}`;
}

/** The fact as the status line says it, shorter: `powered off`, `cpu 100%, mem 41%`, `no VM found`. */
function shortFact(fact: NodeVmFact): string {
  if (fact.kind === 'none') return 'no VM found';
  if (fact.power !== 'running') return `VM ${fact.power}`;
  return fact.problem !== undefined ? 'VM running, no metrics' : `VM cpu ${pct(fact.cpu)} mem ${pct(fact.mem)}`;
}

/** What the lookup came to: the facts by node, the failing nodes not looked up, or why there are none. */
export interface VmFactsOutcome {
  facts: ReadonlyMap<string, NodeVmFact>;
  /** Failing nodes beyond --vcd-max-nodes. */
  notLookedUp: readonly string[];
  maxNodes: number;
  /** Why no VM facts could be had (vCD unreachable, slow, refusing): said once. */
  missing?: string;
}

/** The result with the VM facts added to the failing nodes' lines and the summary; state, perfdata and items' states unchanged. */
export function withVmFacts(result: Result, outcome: VmFactsOutcome): Result {
  const { facts, notLookedUp, missing } = outcome;
  const skipped = new Set(notLookedUp);
  const items = (result.items ?? []).map((item) => {
    if (item.state === State.OK) return item;
    const fact = facts.get(item.name);
    if (fact) return { ...item, text: `${item.text}; ${describeVmFact(fact)}` };
    if (skipped.has(item.name)) return { ...item, text: `${item.text}; VM not looked up (--vcd-max-nodes ${outcome.maxNodes})` };
    return item;
  });
  const phrases: string[] = [];
  if (missing !== undefined) phrases.push(`VM facts missing: ${missing}`);
  const named = [...facts].slice(0, NAMED).map(([node, fact]) => `${node} ${shortFact(fact)}`);
  if (facts.size > NAMED) named.push(`${facts.size - NAMED} more in the long output`);
  if (named.length > 0) phrases.push(`VMs: ${named.join(', ')}`);
  if (notLookedUp.length > 0)
    phrases.push(`${notLookedUp.length} failing node${notLookedUp.length === 1 ? '' : 's'} not looked up in vCD (--vcd-max-nodes ${outcome.maxNodes})`);
  return withParts(
    { ...result, items },
    phrases.map((p) => part(p)),
  );
}
