import { classifyNode, DEFAULT_HEALTH_RULE, type HealthRule, type Node, type NodeHealth } from './node';

/** Which listed nodes the check looks at: --include, --exclude, --node, --ignore-cordoned. */
export interface NodeSelection {
  include?: RegExp;
  exclude?: RegExp;
  /** `--node NAME`: only the node with this name (or, failing that, this Hostname address). */
  node?: string;
  ignoreCordoned?: boolean;
}

/** Receives the nodes of a list as pages are read; `reset` when the list restarts from the beginning. */
export interface NodeSink {
  reset(): void;
  add(node: Node): void;
}

/** One set of judged nodes. */
interface Bucket {
  cordoned: number;
  failing: NodeHealth[];
  healthy: NodeHealth[];
  skipped: NodeHealth[];
}

const emptyBucket = (): Bucket => ({ cordoned: 0, failing: [], healthy: [], skipped: [] });

/**
 * Classifies each node as its page is read and keeps only what the result needs (a name, the
 * broken conditions, a flag or two per node), so memory does not grow with the raw list.
 * Names and patterns match `metadata.name` or the `Hostname` address. `--node`
 * prefers a node so named: another node whose Hostname merely copies that name is used only
 * when no node has it as its name.
 */
export class NodeTally implements NodeSink {
  listed = 0;
  private byName: Bucket = emptyBucket();
  private byHost: Bucket = emptyBucket();

  constructor(
    private readonly rule: HealthRule = DEFAULT_HEALTH_RULE,
    private readonly selection: NodeSelection = {},
  ) {}

  private get bucket(): Bucket {
    const b = this.byName;
    return b.failing.length + b.healthy.length + b.skipped.length > 0 ? b : this.byHost;
  }
  /** Selected nodes that break the rule, in list order. */
  get failing(): NodeHealth[] {
    return this.bucket.failing;
  }
  /** Selected nodes that pass the rule, in list order. */
  get healthy(): NodeHealth[] {
    return this.bucket.healthy;
  }
  /** Cordoned nodes left out by --ignore-cordoned. */
  get skipped(): NodeHealth[] {
    return this.bucket.skipped;
  }
  /** Cordoned nodes among those judged (not counting the skipped ones). */
  get cordoned(): number {
    return this.bucket.cordoned;
  }

  /** Nodes the check judged (listed, matched, not skipped). */
  get selected(): number {
    return this.failing.length + this.healthy.length;
  }

  reset(): void {
    this.listed = 0;
    this.byName = emptyBucket();
    this.byHost = emptyBucket();
  }

  add(node: Node): void {
    const { include, exclude, node: only, ignoreCordoned } = this.selection;
    this.listed++;
    const health = classifyNode(node, this.rule);
    const matches = (re: RegExp) => re.test(health.name) || (health.host !== undefined && re.test(health.host));
    let bucket = this.byName;
    if (only !== undefined && health.name !== only) {
      if (health.host !== only) return;
      bucket = this.byHost;
    }
    if (include && !matches(include)) return;
    if (exclude && matches(exclude)) return;
    if (health.cordoned && ignoreCordoned) {
      bucket.skipped.push(health);
      return;
    }
    if (health.cordoned) bucket.cordoned++;
    (health.healthy ? bucket.healthy : bucket.failing).push(health);
  }
}
