import { describe, expect, it } from 'vitest';
import { classifyNode, displayName, nodeHostname, nodeName, parseHealthRule, type Node, type NodeCondition } from '../../../lib/cluster/node';

const cond = (type: string, status?: string): NodeCondition => (status === undefined ? { type } : { type, status });
const node = (...conditions: NodeCondition[]): Node => ({ metadata: { name: 'n1' }, status: { conditions } });
const kubelet = (ready: string, memory = 'False', disk = 'False', pid = 'False') => [
  cond('MemoryPressure', memory),
  cond('DiskPressure', disk),
  cond('PIDPressure', pid),
  cond('Ready', ready),
];

describe('classifyNode: the health rule: Ready True, every other condition False', () => {
  // [case, conditions, healthy, broken]
  const table: Array<[string, NodeCondition[], boolean, string[]]> = [
    ['all fine', kubelet('True'), true, []],
    ['Ready=False', kubelet('False'), false, ['Ready=False']],
    ['Ready=Unknown', kubelet('Unknown'), false, ['Ready=Unknown']],
    [
      'kubelet stopped: all Unknown, Ready listed first',
      kubelet('Unknown', 'Unknown', 'Unknown', 'Unknown'),
      false,
      ['Ready=Unknown', 'MemoryPressure=Unknown', 'DiskPressure=Unknown', 'PIDPressure=Unknown'],
    ],
    ['MemoryPressure=True', kubelet('True', 'True'), false, ['MemoryPressure=True']],
    ['DiskPressure=True', kubelet('True', 'False', 'True'), false, ['DiskPressure=True']],
    ['PIDPressure=True', kubelet('True', 'False', 'False', 'True'), false, ['PIDPressure=True']],
    ['pressure Unknown is not healthy', kubelet('True', 'Unknown'), false, ['MemoryPressure=Unknown']],
    ['Ready plus pressure, as in the issue', [cond('Ready', 'Unknown'), cond('DiskPressure', 'True')], false, ['Ready=Unknown', 'DiskPressure=True']],
    ['missing Ready', [cond('MemoryPressure', 'False'), cond('DiskPressure', 'False')], false, ['no Ready condition']],
    ['no conditions at all', [], false, ['no Ready condition']],
    ['unknown custom type False is fine', [...kubelet('True'), cond('KernelDeadlock', 'False')], true, []],
    ['unknown custom type True fails', [...kubelet('True'), cond('KernelDeadlock', 'True')], false, ['KernelDeadlock=True']],
    ['unknown custom type Unknown fails', [...kubelet('True'), cond('FrequentKubeletRestart', 'Unknown')], false, ['FrequentKubeletRestart=Unknown']],
    ['CSIReady=True fails by default', [...kubelet('True'), cond('storage.kubernetes.io/CSIReady', 'True')], false, ['storage.kubernetes.io/CSIReady=True']],
    ['status in another case is not True', kubelet('true'), false, ['Ready=true']],
    ['missing status', [cond('Ready')], false, ['Ready=(no status)']],
    ['empty status', [cond('Ready', '')], false, ['Ready=(no status)']],
    ['odd status value', [cond('Ready', 'Maybe')], false, ['Ready=Maybe']],
    ['duplicate Ready, one bad', [cond('Ready', 'True'), cond('Ready', 'False')], false, ['Ready=False']],
  ];
  it.each(table)('%s', (_, conditions, healthy, broken) => {
    const h = classifyNode(node(...conditions));
    expect(h.healthy).toBe(healthy);
    expect(h.broken).toEqual(broken);
  });

  it('treats a node without status, or with a non-array conditions field, as lacking Ready', () => {
    expect(classifyNode({ metadata: { name: 'x' } }).broken).toEqual(['no Ready condition']);
    expect(classifyNode({ status: { conditions: null as unknown as [] } }).healthy).toBe(false);
  });

  it('reports cordoned nodes without making them unhealthy', () => {
    const h = classifyNode({ ...node(...kubelet('True')), spec: { unschedulable: true } });
    expect(h).toMatchObject({ healthy: true, cordoned: true });
    expect(classifyNode({ ...node(...kubelet('True')), spec: {} }).cordoned).toBe(false);
  });
});

describe('--condition and --ignore-condition', () => {
  const csi = [...kubelet('True'), cond('storage.kubernetes.io/CSIReady', 'True')];

  it('--condition TYPE=True makes True the healthy status of that type only', () => {
    const rule = parseHealthRule(['storage.kubernetes.io/CSIReady=True']);
    expect(classifyNode(node(...csi), rule).healthy).toBe(true);
    expect(classifyNode(node(...kubelet('True'), cond('storage.kubernetes.io/CSIReady', 'False')), rule).broken).toEqual([
      'storage.kubernetes.io/CSIReady=False',
    ]);
    expect(classifyNode(node(...kubelet('True'), cond('storage.kubernetes.io/CSIReady', 'Unknown')), rule).healthy).toBe(false);
    // The default rule is unchanged for every other type.
    expect(classifyNode(node(...kubelet('False'), cond('storage.kubernetes.io/CSIReady', 'True')), rule).broken).toEqual(['Ready=False']);
    expect(classifyNode(node(...kubelet('True', 'True')), rule).broken).toEqual(['MemoryPressure=True']);
  });

  it('a type declared expected-True but absent is not a failure', () => {
    expect(classifyNode(node(...kubelet('True')), parseHealthRule(['CSIReady=True'])).healthy).toBe(true);
  });

  it('--condition TYPE=False is accepted (case-insensitive status)', () => {
    expect(parseHealthRule(['Foo=false']).expected.get('Foo')).toBe('False');
    expect(parseHealthRule([' Foo = TRUE ']).expected.get('Foo')).toBe('True');
  });

  it('--ignore-condition skips a type, whatever its status', () => {
    const rule = parseHealthRule([], ['DiskPressure', 'KernelDeadlock']);
    expect(classifyNode(node(...kubelet('True', 'False', 'True'), cond('KernelDeadlock', 'Unknown')), rule).healthy).toBe(true);
    expect(classifyNode(node(...kubelet('True', 'True', 'True')), rule).broken).toEqual(['MemoryPressure=True']);
  });

  it.each([
    [['Foo'], /invalid --condition "Foo": expected TYPE=True or TYPE=False/],
    [['Foo=Unknown'], /invalid --condition/],
    [['=True'], /invalid --condition/],
    [['Ready=False'], /--condition cannot change Ready/],
  ])('rejects --condition %j', (given, message) => {
    expect(() => parseHealthRule(given)).toThrow(message);
  });

  it('rejects ignoring Ready or an empty type', () => {
    expect(() => parseHealthRule([], ['Ready'])).toThrow(/cannot skip Ready/);
    expect(() => parseHealthRule([], [' '])).toThrow(/needs a condition type/);
  });
});

describe('nodeName', () => {
  it('is metadata.name, what kubectl shows, with the Hostname address beside it where it differs', () => {
    const n: Node = {
      metadata: { name: 'ip-10-0-1-2.ec2.internal' },
      status: {
        addresses: [
          { type: 'InternalIP', address: '10.0.1.2' },
          { type: 'Hostname', address: 'worker-2' },
        ],
        conditions: [{ type: 'Ready', status: 'True' }],
      },
    };
    expect(nodeName(n)).toBe('ip-10-0-1-2.ec2.internal');
    expect(nodeHostname(n)).toBe('worker-2');
    expect(displayName(classifyNode(n))).toBe('ip-10-0-1-2.ec2.internal (host worker-2)');
  });
  it('gives no host where the Hostname address is the name, empty or missing', () => {
    const same: Node = { metadata: { name: 'kind-control-plane' }, status: { addresses: [{ type: 'Hostname', address: 'kind-control-plane' }] } };
    expect(classifyNode(same).host).toBeUndefined();
    expect(displayName(classifyNode(same))).toBe('kind-control-plane');
    expect(nodeHostname({ metadata: { name: 'infra-1' }, status: { addresses: [{ type: 'Hostname', address: '' }] } })).toBeUndefined();
    expect(nodeHostname({ metadata: { name: 'infra-1' } })).toBeUndefined();
  });
  it('names a node without a name', () => {
    expect(nodeName({})).toBe('(unnamed)');
  });
});

describe('classifyNode keeps the whole condition message', () => {
  it('past 80 characters, to its last words, redacted', () => {
    const message = `kubelet said Bearer abcdefghijklmnop1234 and then: ${'x '.repeat(60)}No CNI configuration file in /etc/kubernetes/cni/net.d/`;
    const h = classifyNode(node({ type: 'Ready', status: 'False', message }));
    expect(h.problems[0].message).toMatch(/^kubelet said Bearer <redacted> and then: (x ){60}No CNI configuration file in \/etc\/kubernetes\/cni\/net\.d\/$/);
  });
});
