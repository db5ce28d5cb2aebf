import { describe, expect, it } from 'vitest';
import type { Node, NodeCondition } from '../../../lib/cluster/node';
import { describeFailing, discoveryJson, evaluateNodes, formatAge } from '../../../lib/cluster/node-report';
import { NodeTally } from '../../../lib/cluster/node-tally';
import { compileNamePattern } from '../../../lib/plugin/linear-regexp';
import { parseRange } from '../../../lib/plugin/range';
import { renderNagios } from '../../../lib/plugin/result';
import { ScalarContext } from '../../../lib/plugin/scalar-context';
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

const c0 = new ScalarContext({ critical: parseRange('0', '-c') });
const healthy6 = ['w1', 'w2', 'w3', 'w4', 'w5', 'w6'].map((n) => mk(n));

describe('evaluateNodes', () => {
  it('all healthy: OK with the documented summary and perfdata', () => {
    const r = evaluateNodes(tally(healthy6), { failing: c0 });
    expect(r.state).toBe(State.OK);
    expect(renderNagios('NODES', r).split('\n')[0]).toBe('NODES OK - 6 of 6 nodes healthy | nodes=6;;;0 healthy=6;;;0 failing=0;;0;0;6 cordoned=0;;;0');
    // Quiet by default: one line counts the healthy nodes; --list-all lists them.
    expect(r.items?.map((i) => i.text)).toEqual(['6 nodes healthy (--list-all lists them)']);
    expect(evaluateNodes(tally(healthy6), { failing: c0, listAll: true }).items?.map((i) => i.text)).toEqual([
      'w1.example.com (host w1): healthy',
      'w2.example.com (host w2): healthy',
      'w3.example.com (host w3): healthy',
      'w4.example.com (host w4): healthy',
      'w5.example.com (host w5): healthy',
      'w6.example.com (host w6): healthy',
    ]);
  });

  it('one failing node: CRITICAL by default, naming it and why', () => {
    const nodes = [...healthy6.slice(0, 5), mk('worker-2', { ready: 'Unknown', disk: 'True' })];
    const r = evaluateNodes(tally(nodes), { failing: c0 });
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toBe('1 of 6 nodes failing: worker-2.example.com (Ready=Unknown, DiskPressure=True)');
    expect(r.items?.[0]).toEqual({
      name: 'worker-2.example.com',
      state: State.CRITICAL,
      text: 'worker-2.example.com (host worker-2): Ready=Unknown, DiskPressure=True',
    });
    expect(r.items?.[1]).toEqual({ name: '', state: State.OK, text: '5 nodes healthy (--list-all lists them)' });
  });

  it('names at most five failing nodes, then "and N more"', () => {
    const nodes = Array.from({ length: 8 }, (_, i) => mk(`w${i}`, { ready: 'False' }));
    const r = evaluateNodes(tally(nodes), { failing: c0 });
    expect(r.summary).toBe(
      '8 of 8 nodes failing: w0.example.com (Ready=False), w1.example.com (Ready=False), w2.example.com (Ready=False), w3.example.com (Ready=False), w4.example.com (Ready=False) and 3 more',
    );
    expect(describeFailing(tally(nodes.slice(0, 5)).failing)).not.toContain('more');
  });

  it('applies -w/-c ranges to the failing count; critical wins', () => {
    const nodes = [...healthy6, mk('x1', { ready: 'False' }), mk('x2', { ready: 'False' })];
    const t = tally(nodes);
    const w0c2 = { failing: new ScalarContext({ warning: parseRange('0', '-w'), critical: parseRange('2', '-c') }) };
    expect(evaluateNodes(t, w0c2).state).toBe(State.WARNING);
    expect(evaluateNodes(t, w0c2).items?.[0].state).toBe(State.WARNING);
    expect(evaluateNodes(t, { failing: new ScalarContext({ warning: parseRange('0', '-w'), critical: parseRange('1', '-c') }) }).state).toBe(State.CRITICAL);
    expect(evaluateNodes(t, { failing: new ScalarContext({ critical: parseRange('5', '-c') }) }).state).toBe(State.OK);
    const m = evaluateNodes(t, w0c2).metrics!.find((x) => x.label === 'failing')!;
    expect(m.warning?.text).toBe('0');
    expect(m.critical?.text).toBe('2');
  });

  it('--percent: ranges on the failing percentage; failing stays a count, failing_pct carries the ranges', () => {
    const nodes = [...healthy6.slice(0, 3), mk('x1', { ready: 'False' })]; // 25 %
    const t = tally(nodes);
    const r = evaluateNodes(t, { failing: new ScalarContext({ warning: parseRange('20', '-w'), critical: parseRange('30', '-c') }), percent: true });
    expect(r.state).toBe(State.WARNING);
    expect(r.summary).toBe('1 of 4 nodes failing (25%): x1.example.com (Ready=False)');
    const perf = renderNagios('NODES', r).split('\n')[0].split(' | ')[1];
    expect(perf).toBe('nodes=4;;;0 healthy=3;;;0 failing=1;;;0;4 cordoned=0;;;0 failing_pct=25%;20;30;0;100');
    expect(() => parsePerfdataStrict(perf)).not.toThrow();
    expect(evaluateNodes(t, { failing: new ScalarContext({ critical: parseRange('25', '-c') }), percent: true }).state).toBe(State.OK);
  });

  it('--min-nodes: CRITICAL below it, even when every node is healthy', () => {
    const r = evaluateNodes(tally(healthy6.slice(0, 4)), { failing: c0, minNodes: 6 });
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toBe('only 4 nodes, expected at least 6: 4 of 4 nodes healthy');
    expect(evaluateNodes(tally(healthy6), { failing: c0, minNodes: 6 }).state).toBe(State.OK);
  });

  it('zero nodes after selection: UNKNOWN, unless --min-nodes 0 (OK) or more (CRITICAL)', () => {
    const t = tally(healthy6, { include: compileNamePattern('^nothing', '--include') });
    const u = evaluateNodes(t, { failing: c0 });
    expect(u.state).toBe(State.UNKNOWN);
    expect(u.summary).toMatch(/^no nodes to check \(6 listed: none matches --include, --exclude and --node\), use --min-nodes 0/);
    // The advice names what was given, not options the operator never used.
    expect(evaluateNodes(t, { failing: c0, selectionOptions: '--include "^nothing"' }).summary).toBe(
      'no nodes to check (6 listed: none matches --include "^nothing"), use --min-nodes 0 if none is fine',
    );
    expect(evaluateNodes(tally([]), { failing: c0, selector: 'node-role.kubernetes.io/gpu=' }).summary).toBe(
      'no nodes to check (0 listed: the API listed none for -l/--selector node-role.kubernetes.io/gpu=), use --min-nodes 0 if none is fine',
    );
    expect(evaluateNodes(t, { failing: c0, minNodes: 0 })).toMatchObject({ state: State.OK, summary: '0 of 0 nodes healthy' });
    expect(evaluateNodes(t, { failing: c0, minNodes: 2 }).state).toBe(State.CRITICAL);
  });

  it('cordoned nodes are counted, and listed as skipped with --ignore-cordoned', () => {
    const nodes = [...healthy6.slice(0, 5), mk('w9', { cordoned: true })];
    const counted = evaluateNodes(tally(nodes), { failing: c0 });
    expect(counted.summary).toBe('6 of 6 nodes healthy, 1 cordoned');
    expect(counted.metrics?.find((m) => m.label === 'cordoned')?.value).toBe(1);
    // A cordoned node is listed even when healthy; the others are counted.
    expect(counted.items?.map((i) => i.text)).toEqual(['w9.example.com (host w9): healthy, cordoned', '5 more nodes healthy (--list-all lists them)']);
    const skipped = evaluateNodes(tally(nodes, { ignoreCordoned: true }), { failing: c0 });
    expect(skipped.summary).toBe('5 of 5 nodes healthy, 1 cordoned skipped');
    expect(skipped.items?.[0]).toEqual({ name: 'w9.example.com', state: State.OK, text: 'w9.example.com (host w9): skipped (cordoned, --ignore-cordoned)' });
    // The perfdata says what the summary says: one cordoned node, skipped or not.
    expect(skipped.metrics?.find((m) => m.label === 'cordoned')?.value).toBe(1);
  });

  it('lists failing nodes first in long output', () => {
    const r = evaluateNodes(tally([mk('a'), mk('b', { ready: 'False' }), mk('c')]), { failing: c0 });
    expect(r.items?.map((i) => i.name)).toEqual(['b.example.com', '']);
    expect(evaluateNodes(tally([mk('a'), mk('b', { ready: 'False' }), mk('c')]), { failing: c0, listAll: true }).items?.map((i) => i.name)).toEqual([
      'b.example.com',
      'a.example.com',
      'c.example.com',
    ]);
  });

  it('--node: checks the one node, found by its name or Hostname address; CRITICAL when not listed', () => {
    const nodes = [...healthy6, mk('x1', { ready: 'False' })];
    expect(evaluateNodes(tally(nodes, { node: 'w2' }), { failing: c0, node: 'w2' }).summary).toBe('1 of 1 nodes healthy');
    expect(evaluateNodes(tally(nodes, { node: 'w2.example.com' }), { failing: c0, node: 'w2.example.com' }).summary).toBe('1 of 1 nodes healthy');
    expect(evaluateNodes(tally(nodes, { node: 'x1.example.com' }), { failing: c0, node: 'x1.example.com' }).state).toBe(State.CRITICAL);
    const gone = evaluateNodes(tally(nodes, { node: 'w9' }), { failing: c0, node: 'w9' });
    expect(gone).toMatchObject({ state: State.CRITICAL, summary: 'node w9 not found among 7 listed nodes' });
  });
});

describe('selection', () => {
  it('--include and --exclude match the node name (metadata.name) or its Hostname address', () => {
    const nodes = [mk('master-0'), mk('worker-1'), mk('worker-2'), mk('infra-1', { hostname: false })];
    const t = tally(nodes, { include: compileNamePattern('^(worker|infra)', '--include'), exclude: compileNamePattern('-2$', '--exclude') });
    expect(t.healthy.map((h) => h.name)).toEqual(['worker-1.example.com', 'infra-1.example.com']);
    expect(t.listed).toBe(4);
    // The part of the name that only metadata.name has (the issue's `--include prod-eu1`).
    const prod = tally([mk('worker-3'), { ...mk('worker-4'), metadata: { name: 'worker-4.prod-eu1.example.com' } }], {
      include: compileNamePattern('prod-eu1', '--include'),
    });
    expect(prod.healthy.map((h) => h.name)).toEqual(['worker-4.prod-eu1.example.com']);
    const ex = tally([mk('worker-3'), mk('worker-4')], { exclude: compileNamePattern('^worker-3$', '--exclude') });
    expect(ex.healthy.map((h) => h.name)).toEqual(['worker-4.example.com']);
  });

  it('rejects an invalid pattern naming the option', () => {
    expect(() => compileNamePattern('(', '--include')).toThrow(/^invalid --include "\(": .* \(see --help\)$/);
    expect(compileNamePattern(undefined, '--include')).toBeUndefined();
  });

  it('reset forgets what was counted (a list restarted after 410 Gone)', () => {
    const t = tally([mk('a'), mk('b', { ready: 'False', cordoned: true })]);
    t.reset();
    t.add(mk('c'));
    expect({ listed: t.listed, selected: t.selected, failing: t.failing.length, cordoned: t.cordoned }).toEqual({
      listed: 1,
      selected: 1,
      failing: 0,
      cordoned: 0,
    });
  });
});

describe('discoveryJson (Zabbix LLD)', () => {
  it('prints a bare array of {#NODE} macros, sorted, of the selected nodes', () => {
    const t = tally([mk('worker-2'), mk('worker-1', { ready: 'False' }), mk('master-0')], { include: compileNamePattern('^worker', '--include') });
    expect(discoveryJson(t)).toBe(
      '[{"{#NODE}":"worker-1.example.com","{#NODE.HOST}":"worker-1"},{"{#NODE}":"worker-2.example.com","{#NODE.HOST}":"worker-2"}]\n',
    );
    expect(discoveryJson(tally([mk('infra-1', { hostname: false })]))).toBe('[{"{#NODE}":"infra-1.example.com","{#NODE.HOST}":"infra-1.example.com"}]\n');
    expect(discoveryJson(tally([]))).toBe('[]\n');
  });
});

// Conditions as the kubelet writes them (Kubernetes API reference, NodeCondition; messages of
// kubelet's setNodeReadyCondition and an OpenShift node after a network-plugin failure).
const NOW = Date.parse('2026-11-22T10:00:00Z');
function sick(name: string, ready: { status: string; since: string; reason?: string; message?: string }, extra: NodeCondition[] = []): Node {
  return {
    metadata: { name: `${name}.prod-eu1.example.com` },
    status: {
      addresses: [
        { type: 'InternalIP', address: '10.0.130.7' },
        { type: 'Hostname', address: name },
      ],
      conditions: [
        {
          type: 'MemoryPressure',
          status: 'False',
          reason: 'KubeletHasSufficientMemory',
          message: 'kubelet has sufficient memory available',
          lastTransitionTime: '2026-03-04T11:17:09Z',
        },
        ...extra,
        {
          type: 'Ready',
          status: ready.status,
          reason: ready.reason,
          message: ready.message,
          lastHeartbeatTime: '2026-11-22T09:59:41Z',
          lastTransitionTime: ready.since,
        },
      ],
    },
  };
}
const NOT_READY = {
  status: 'False',
  since: '2026-11-22T09:48:00Z',
  reason: 'KubeletNotReady',
  message:
    'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: No CNI configuration file in /etc/kubernetes/cni/net.d/. Has your network provider started?',
};

describe('why a node fails, and since when (long output)', () => {
  it('gives each bad condition its reason, whole message, age and since when', () => {
    const r = evaluateNodes(tally([sick('worker-3', NOT_READY), mk('w1')]), { failing: c0, now: NOW });
    expect(r.items?.[0].state).toBe(State.CRITICAL);
    // The long output keeps the whole message: its last words are the fix.
    expect(r.items![0].text).toBe(
      `worker-3.prod-eu1.example.com (host worker-3): Ready=False for 12m, since 2026-11-22T09:48Z (KubeletNotReady: ${NOT_READY.message})`,
    );
    // The status line keeps both ends of the message, cut at words, and the long output the rest.
    expect(r.summary).toBe(
      '1 of 2 nodes failing: worker-3.prod-eu1.example.com (Ready=False: container runtime network not ready: NetworkReady=false … message:Network plugin returns error: No CNI configuration file in /etc/kubernetes/cni/net.d/. Has your network provider started?)',
    );
  });
  it('shares the status line among the failing nodes: five say no messages, the long output has them', () => {
    const five = ['w1', 'w2', 'w3', 'w4', 'w5'].map((n) => sick(n, NOT_READY));
    const r = evaluateNodes(tally(five), { failing: c0, now: NOW });
    expect(r.summary).toBe(`5 of 5 nodes failing: ${['w1', 'w2', 'w3', 'w4', 'w5'].map((n) => `${n}.prod-eu1.example.com (Ready=False)`).join(', ')}`);
    expect(r.items!.every((i) => i.text.endsWith('Has your network provider started?)'))).toBe(true);
    const two = evaluateNodes(tally(five.slice(0, 2)), { failing: c0, now: NOW }).summary;
    expect(two).toMatch(/ \(Ready=False: container runtime network not … \S* ?in \/etc\/kubernetes\/cni\/net\.d\/\. Has your network provider started\?\), w2/);
    expect(two.length).toBeLessThan(300);
  });
  it('says nothing of an age it cannot know (no or bad lastTransitionTime, or in the future)', () => {
    const bad = (since: string) =>
      evaluateNodes(tally([sick('w', { status: 'Unknown', since, reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' })]), {
        failing: c0,
        now: NOW,
      }).items![0].text;
    expect(bad('not a time')).toBe('w.prod-eu1.example.com (host w): Ready=Unknown (NodeStatusUnknown: Kubelet stopped posting node status.)');
    expect(bad('2026-11-22T11:00:00Z')).toBe('w.prod-eu1.example.com (host w): Ready=Unknown (NodeStatusUnknown: Kubelet stopped posting node status.)');
  });
  it('says a shared age, reason and message once (the kubelet stopped posting status)', () => {
    const stopped = {
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
      lastTransitionTime: '2026-11-22T07:00:00Z',
    };
    const n: Node = {
      metadata: { name: 'w2' },
      status: {
        conditions: [
          { type: 'MemoryPressure', ...stopped },
          { type: 'Ready', ...stopped },
          { type: 'KernelDeadlock', status: 'True', reason: 'DockerHung', lastTransitionTime: '2026-11-22T07:00:00Z' },
        ],
      },
    };
    const r = evaluateNodes(tally([n]), { failing: c0, now: NOW });
    expect(r.items![0].text).toBe(
      'w2: kubelet stopped posting status (Ready, MemoryPressure Unknown) for 3h, since 2026-11-22T07:00Z, KernelDeadlock=True for 3h, since 2026-11-22T07:00Z (DockerHung)',
    );
    expect(r.summary).toBe('1 of 1 nodes failing: w2 (kubelet stopped posting status (Ready, MemoryPressure Unknown), KernelDeadlock=True: DockerHung)');
  });
  it.each([
    [30_000, '30s'],
    [12 * 60_000, '12m'],
    [5 * 3600_000, '5h'],
    [3 * 86400_000, '3d'],
  ])('formats an age of %i ms as %s', (ms, text) => expect(formatAge(ms)).toBe(text));
});

describe('--grace', () => {
  it('keeps a node whose bad conditions changed less than the grace ago at WARNING, saying so', () => {
    const nodes = [sick('worker-3', NOT_READY), ...healthy6];
    const strict = evaluateNodes(tally(nodes), { failing: c0, now: NOW });
    expect(strict.state).toBe(State.CRITICAL);
    const graced = evaluateNodes(tally(nodes), { failing: c0, now: NOW, grace: 15 * 60 });
    expect(graced.state).toBe(State.WARNING);
    expect(graced.summary).toMatch(
      /^1 of 7 nodes failing: worker-3\.prod-eu1\.example\.com \(Ready=False: container .* started\?\), 1 within --grace 15m, so WARNING$/,
    );
    expect(graced.items?.[0]).toMatchObject({ state: State.WARNING, text: expect.stringMatching(/Ready=False for 12m, since .*, within --grace 15m$/) });
    expect(graced.metrics?.find((m) => m.label === 'failing_in_grace')?.value).toBe(1);
    // Grace shorter than the 12 minutes: CRITICAL again.
    expect(evaluateNodes(tally(nodes), { failing: c0, now: NOW, grace: 10 * 60 }).state).toBe(State.CRITICAL);
  });
  it('does not cover a node with another condition bad for longer, or with no transition time', () => {
    const old = sick('worker-4', NOT_READY, [
      {
        type: 'DiskPressure',
        status: 'True',
        reason: 'KubeletHasDiskPressure',
        message: 'kubelet has disk pressure',
        lastTransitionTime: '2026-11-21T22:00:00Z',
      },
    ]);
    expect(evaluateNodes(tally([old]), { failing: c0, now: NOW, grace: 3600 }).state).toBe(State.CRITICAL);
    const noTime = sick('worker-5', { status: 'False', since: '' });
    expect(evaluateNodes(tally([noTime]), { failing: c0, now: NOW, grace: 3600 }).state).toBe(State.CRITICAL);
  });
  it('nodes in grace do not count against -w/-c', () => {
    const nodes = [sick('a', NOT_READY), sick('b', { ...NOT_READY, since: '2026-11-22T07:00:00Z' }), ...healthy6];
    const r = evaluateNodes(tally(nodes), {
      failing: new ScalarContext({ warning: parseRange('0', '-w'), critical: parseRange('1', '-c') }),
      now: NOW,
      grace: 1800,
    });
    expect(r.state).toBe(State.WARNING);
    expect(r.items?.map((i) => i.state).slice(0, 2)).toEqual([State.WARNING, State.WARNING]);
  });
});

describe('names that clash', () => {
  // A node whose Hostname address copies another node's name (seen when a host was renamed).
  const real = { ...mk('worker-3'), metadata: { name: 'worker-3' } };
  const copy: Node = {
    metadata: { name: 'worker-7.prod-eu1.example.com' },
    status: { addresses: [{ type: 'Hostname', address: 'worker-3' }], conditions: [{ type: 'Ready', status: 'False' }] },
  };
  it('shows each node by its own name, and --node prefers the node so named', () => {
    const r = evaluateNodes(tally([real, copy]), { failing: c0, listAll: true });
    expect(r.summary).toBe('1 of 2 nodes failing: worker-7.prod-eu1.example.com (Ready=False)');
    const one = evaluateNodes(tally([copy, real], { node: 'worker-3' }), { failing: c0, node: 'worker-3' });
    expect(one).toMatchObject({ state: State.OK, summary: '1 of 1 nodes healthy' });
  });
  it('discovery lists each node once, by name', () => {
    const doc = JSON.parse(discoveryJson(tally([real, copy])));
    expect(doc.map((e: Record<string, string>) => e['{#NODE}'])).toEqual(['worker-3', 'worker-7.prod-eu1.example.com']);
  });
});
