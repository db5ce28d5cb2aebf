import { compileLinearRegExp } from '../plugin/linear-regexp';
import { classifyNode, DEFAULT_HEALTH_RULE, type HealthRule, type Node, type NodeHealth } from './node';

/** Which listed nodes the check looks at (SPEC 3.3, 3.5). */
export interface NodeSelection {
  include?: RegExp;
  exclude?: RegExp;
  /** `--node NAME`: only the node with this name (or metadata.name). */
  node?: string;
  ignoreCordoned?: boolean;
}

/** Compiles `--include`/`--exclude`, naming the option when a pattern is invalid. */
export function compileNamePattern(pattern: string | undefined, option: string): RegExp | undefined {
  return pattern === undefined ? undefined : compileLinearRegExp(pattern, option); // linear time: -t wins over any pattern
}

/** Receives the nodes of a list as pages are read; `reset` when the list restarts from the beginning. */
export interface NodeSink {
  reset(): void;
  add(node: Node): void;
}

/**
 * Classifies each node as its page is read and keeps only what the result needs (a name, the
 * broken conditions, a flag or two per node), so memory does not grow with the raw list.
 */
export class NodeTally implements NodeSink {
  listed = 0;
  cordoned = 0;
  failing: NodeHealth[] = [];
  /** Selected nodes that pass the rule, in list order. */
  healthy: NodeHealth[] = [];
  /** Cordoned nodes left out by --ignore-cordoned. */
  skipped: NodeHealth[] = [];

  constructor(
    private readonly rule: HealthRule = DEFAULT_HEALTH_RULE,
    private readonly selection: NodeSelection = {},
  ) {}

  /** Nodes the check judged (listed, matched, not skipped). */
  get selected(): number {
    return this.failing.length + this.healthy.length;
  }

  reset(): void {
    this.listed = 0;
    this.cordoned = 0;
    this.failing = [];
    this.healthy = [];
    this.skipped = [];
  }

  add(node: Node): void {
    const { include, exclude, node: only, ignoreCordoned } = this.selection;
    this.listed++;
    const health = classifyNode(node, this.rule);
    if (only !== undefined && health.name !== only && node.metadata?.name !== only) return;
    if (include && !include.test(health.name)) return;
    if (exclude && exclude.test(health.name)) return;
    if (health.cordoned && ignoreCordoned) {
      this.skipped.push(health);
      return;
    }
    if (health.cordoned) this.cordoned++;
    (health.healthy ? this.healthy : this.failing).push(health);
  }
}
