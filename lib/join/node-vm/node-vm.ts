// check_nodes with --vcd-*: the failing nodes' VMs, looked up within a bounded share of -t so
// that the nodes' verdict always prints, unchanged whatever vCD does. Loaded only when a
// --vcd-* option is given.
import type { RunContext } from '../../plugin/context';
import type { Result } from '../../plugin/result';
import type { NodeVmConfig } from './node-vm-config';
import { lookUpNodeVms, type NodeMachine, type NodeVmFact } from './node-vm-lookup';
import { withVmFacts } from './node-vm-report';

export { nodeVmConfigFrom, type NodeVmConfig } from './node-vm-config';
export type { NodeMachine } from './node-vm-lookup';

/** The share of -t kept back from the vCD side for the verdict: a fifth, and at least a second. */
function reserveMs(context: RunContext): number {
  return Math.max(1000, context.timeoutSeconds * 200);
}

/** Less time than this left for vCD, and it is not asked at all. */
const MIN_LOOKUP_MS = 300;

/**
 * The result with the VM facts of its failing nodes (`failing`, in the order the result names
 * them): no request at all when none fails; any failure of vCD (unreachable, slow, refusing)
 * is one phrase, never a state.
 */
export async function addVmFacts(result: Result, failing: readonly NodeMachine[], config: NodeVmConfig, context: RunContext): Promise<Result> {
  if (failing.length === 0) return result;
  const looked = failing.slice(0, config.maxNodes);
  const notLookedUp = failing.slice(config.maxNodes).map((n) => n.name);
  const outcome = { notLookedUp, maxNodes: config.maxNodes };
  const cutoff = context.deadline - reserveMs(context);
  const share = cutoff - Date.now();
  if (share < MIN_LOOKUP_MS)
    return withVmFacts(result, { ...outcome, facts: new Map(), missing: `no time left for vCD within -t ${context.timeoutSeconds}s (raise -t)` });
  const { facts, missing } = await boundedLookup(config, looked, context, cutoff);
  return withVmFacts(result, { ...outcome, facts, missing });
}

/** The lookup with its requests aborted at `cutoff`; what it could not do by then, or at all, is `missing`. */
async function boundedLookup(
  config: NodeVmConfig,
  nodes: readonly NodeMachine[],
  context: RunContext,
  cutoff: number,
): Promise<{ facts: Map<string, NodeVmFact>; missing?: string }> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  context.signal.addEventListener('abort', stop);
  const origin = config.session.base.origin;
  const late = `${origin} did not answer within ${formatSeconds(cutoff - Date.now())} (the vCD share of -t ${context.timeoutSeconds}s)`;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => (stop(), resolve('expired')), Math.max(0, cutoff - Date.now()));
  });
  const bounded: RunContext = { ...context, signal: controller.signal, deadline: cutoff };
  try {
    const facts = await Promise.race([lookUpNodeVms(config, nodes, bounded), expired]);
    return facts === 'expired' ? { facts: new Map(), missing: late } : { facts };
  } catch (error) {
    if (controller.signal.aborted) return { facts: new Map(), missing: late };
    return { facts: new Map(), missing: `${origin}: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    clearTimeout(timer);
    context.signal.removeEventListener('abort', stop);
  }
}

function formatSeconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)}s`;
}
