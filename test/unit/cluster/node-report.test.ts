import { describe, expect, it } from 'vitest';
import type { Node } from '../../../lib/cluster/node';
import { describeFailing, discoveryJson, evaluateNodes } from '../../../lib/cluster/node-report';
import { compileNamePattern, NodeTally } from '../../../lib/cluster/node-tally';
import { parseRange } from '../../../lib/plugin/range';
import { renderNagios } from '../../../lib/plugin/result';
import { State } from '../../../lib/plugin/state';
import { parsePerfdataStrict } from '../../support/perfdata-parse';

function mk(name: string, opts: { ready?: string; disk?: string; cordoned?: boolean; hostname?: boolean } = {}): Node {
  return {
    metadata: { name: `${name}.example.com` },
    spec: opts.cordoned ? { unschedulable: true } : {},
    status: {
      addresses: opts.hostname === false ? [] : [{ type: 'Hostname', address: name }],
      conditions: [
        { type: 'DiskPressure', status: opts.disk ?? 'False' },
        { type: 'Ready', status: opts.ready ?? 'True' },
      ],
    },
  };
}

function tally(nodes: Node[], selection = {}): NodeTally {
  const t = new NodeTally(undefined, selection);
  for (const n of nodes) t.add(n);
  return t;
}

const c0 = parseRange('0', '-c');
const healthy6 = ['w1', 'w2', 'w3', 'w4', 'w5', 'w6'].map((n) => mk(n));

describe('evaluateNodes', () => {
  it('all healthy: OK with the SPEC summary and perfdata', () => {
    const r = evaluateNodes(tally(healthy6), { critical: c0 });
    expect(r.state).toBe(State.OK);
    expect(renderNagios('NODES', r).split('\n')[0]).toBe('NODES OK - 6 of 6 nodes healthy | nodes=6;;;0 healthy=6;;;0 failing=0;;0;0;6 cordoned=0;;;0');
    expect(r.items?.map((i) => i.text)).toEqual(['w1: healthy', 'w2: healthy', 'w3: healthy', 'w4: healthy', 'w5: healthy', 'w6: healthy']);
  });

  it('one failing node: CRITICAL by default, naming it and why', () => {
    const nodes = [...healthy6.slice(0, 5), mk('worker-2', { ready: 'Unknown', disk: 'True' })];
    const r = evaluateNodes(tally(nodes), { critical: c0 });
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toBe('1 of 6 nodes failing: worker-2 (Ready=Unknown, DiskPressure=True)');
    expect(r.items?.[0]).toEqual({ name: 'worker-2', state: State.CRITICAL, text: 'worker-2: Ready=Unknown, DiskPressure=True' });
  });

  it('names at most five failing nodes, then "and N more"', () => {
    const nodes = Array.from({ length: 8 }, (_, i) => mk(`w${i}`, { ready: 'False' }));
    const r = evaluateNodes(tally(nodes), { critical: c0 });
    expect(r.summary).toBe('8 of 8 nodes failing: w0 (Ready=False), w1 (Ready=False), w2 (Ready=False), w3 (Ready=False), w4 (Ready=False) and 3 more');
    expect(describeFailing(tally(nodes.slice(0, 5)).failing)).not.toContain('more');
  });

  it('applies -w/-c ranges to the failing count; critical wins', () => {
    const nodes = [...healthy6, mk('x1', { ready: 'False' }), mk('x2', { ready: 'False' })];
    const t = tally(nodes);
    const w0c2 = { warning: parseRange('0', '-w'), critical: parseRange('2', '-c') };
    expect(evaluateNodes(t, w0c2).state).toBe(State.WARNING);
    expect(evaluateNodes(t, w0c2).items?.[0].state).toBe(State.WARNING);
    expect(evaluateNodes(t, { warning: parseRange('0', '-w'), critical: parseRange('1', '-c') }).state).toBe(State.CRITICAL);
    expect(evaluateNodes(t, { critical: parseRange('5', '-c') }).state).toBe(State.OK);
    const m = evaluateNodes(t, w0c2).metrics!.find((x) => x.label === 'failing')!;
    expect(m.warning?.text).toBe('0');
    expect(m.critical?.text).toBe('2');
  });

  it('--percent: ranges on the failing percentage; failing stays a count, failing_pct carries the ranges', () => {
    const nodes = [...healthy6.slice(0, 3), mk('x1', { ready: 'False' })]; // 25 %
    const t = tally(nodes);
    const r = evaluateNodes(t, { warning: parseRange('20', '-w'), critical: parseRange('30', '-c'), percent: true });
    expect(r.state).toBe(State.WARNING);
    expect(r.summary).toBe('1 of 4 nodes failing (25%): x1 (Ready=False)');
    const perf = renderNagios('NODES', r).split('\n')[0].split(' | ')[1];
    expect(perf).toBe('nodes=4;;;0 healthy=3;;;0 failing=1;;;0;4 cordoned=0;;;0 failing_pct=25%;20;30;0;100');
    expect(() => parsePerfdataStrict(perf)).not.toThrow();
    expect(evaluateNodes(t, { critical: parseRange('25', '-c'), percent: true }).state).toBe(State.OK);
  });

  it('--min-nodes: CRITICAL below it, even when every node is healthy', () => {
    const r = evaluateNodes(tally(healthy6.slice(0, 4)), { critical: c0, minNodes: 6 });
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toBe('only 4 nodes, expected at least 6: 4 of 4 nodes healthy');
    expect(evaluateNodes(tally(healthy6), { critical: c0, minNodes: 6 }).state).toBe(State.OK);
  });

  it('zero nodes after selection: UNKNOWN, unless --min-nodes 0 (OK) or more (CRITICAL)', () => {
    const t = tally(healthy6, { include: compileNamePattern('^nothing', '--include') });
    const u = evaluateNodes(t, { critical: c0 });
    expect(u.state).toBe(State.UNKNOWN);
    expect(u.summary).toMatch(/^no nodes to check \(6 listed; check -l\/--selector, --include, --exclude and --node\); use --min-nodes 0/);
    expect(evaluateNodes(t, { critical: c0, minNodes: 0 })).toMatchObject({ state: State.OK, summary: '0 of 0 nodes healthy' });
    expect(evaluateNodes(t, { critical: c0, minNodes: 2 }).state).toBe(State.CRITICAL);
  });

  it('cordoned nodes are counted, and listed as skipped with --ignore-cordoned', () => {
    const nodes = [...healthy6.slice(0, 5), mk('w9', { cordoned: true })];
    const counted = evaluateNodes(tally(nodes), { critical: c0 });
    expect(counted.summary).toBe('6 of 6 nodes healthy, 1 cordoned');
    expect(counted.metrics?.find((m) => m.label === 'cordoned')?.value).toBe(1);
    expect(counted.items?.at(-1)?.text).toBe('w9: healthy, cordoned');
    const skipped = evaluateNodes(tally(nodes, { ignoreCordoned: true }), { critical: c0 });
    expect(skipped.summary).toBe('5 of 5 nodes healthy, 1 cordoned skipped');
    expect(skipped.items?.at(-1)).toEqual({ name: 'w9', state: State.OK, text: 'w9: skipped (cordoned, --ignore-cordoned)' });
    expect(skipped.metrics?.find((m) => m.label === 'cordoned')?.value).toBe(0);
  });

  it('lists failing nodes first in long output', () => {
    const r = evaluateNodes(tally([mk('a'), mk('b', { ready: 'False' }), mk('c')]), { critical: c0 });
    expect(r.items?.map((i) => i.name)).toEqual(['b', 'a', 'c']);
  });

  it('--node: checks the one node, found by its name or metadata.name; CRITICAL when not listed', () => {
    const nodes = [...healthy6, mk('x1', { ready: 'False' })];
    expect(evaluateNodes(tally(nodes, { node: 'w2' }), { critical: c0, node: 'w2' }).summary).toBe('1 of 1 nodes healthy');
    expect(evaluateNodes(tally(nodes, { node: 'x1.example.com' }), { critical: c0, node: 'x1.example.com' }).state).toBe(State.CRITICAL);
    const gone = evaluateNodes(tally(nodes, { node: 'w9' }), { critical: c0, node: 'w9' });
    expect(gone).toMatchObject({ state: State.CRITICAL, summary: 'node w9 not found among 7 listed nodes' });
  });
});

describe('selection', () => {
  it('--include and --exclude match the node name (Hostname, else metadata.name)', () => {
    const nodes = [mk('master-0'), mk('worker-1'), mk('worker-2'), mk('infra-1', { hostname: false })];
    const t = tally(nodes, { include: compileNamePattern('^(worker|infra)', '--include'), exclude: compileNamePattern('-2$', '--exclude') });
    expect(t.healthy.map((h) => h.name)).toEqual(['worker-1', 'infra-1.example.com']);
    expect(t.listed).toBe(4);
  });

  it('rejects an invalid pattern naming the option', () => {
    expect(() => compileNamePattern('(', '--include')).toThrow(/^invalid --include "\(": .* \(see --help\)$/);
    expect(compileNamePattern(undefined, '--include')).toBeUndefined();
  });

  it('reset forgets what was counted (a list restarted after 410 Gone)', () => {
    const t = tally([mk('a'), mk('b', { ready: 'False', cordoned: true })]);
    t.reset();
    t.add(mk('c'));
    expect({ listed: t.listed, selected: t.selected, failing: t.failing.length, cordoned: t.cordoned }).toEqual({ listed: 1, selected: 1, failing: 0, cordoned: 0 });
  });
});

describe('discoveryJson (Zabbix LLD, SPEC 3.5)', () => {
  it('prints a bare array of {#NODE} macros, sorted, of the selected nodes', () => {
    const t = tally([mk('worker-2'), mk('worker-1', { ready: 'False' }), mk('master-0')], { include: compileNamePattern('^worker', '--include') });
    expect(discoveryJson(t)).toBe('[{"{#NODE}":"worker-1"},{"{#NODE}":"worker-2"}]\n');
    expect(discoveryJson(tally([]))).toBe('[]\n');
  });
});
