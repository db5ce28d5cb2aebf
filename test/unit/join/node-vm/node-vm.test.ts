import { describe, expect, it } from 'vitest';
import { vmIdOfProvider } from '../../../../lib/join/node-vm/node-vm-lookup';
import { describeVmFact, withVmFacts } from '../../../../lib/join/node-vm/node-vm-report';
import { queryPath } from '../../../../lib/vcd/inventory/vm-query';
import { State } from '../../../../lib/plugin/state';

const UUID = '5a0e1c2d-3b4f-4a6e-8d7c-0a1b2c3d4e12';

describe('vmIdOfProvider: the VM a node names in spec.providerID', () => {
  it.each([
    [`vmware-cloud-director://urn:vcloud:vm:${UUID}`, `vm-${UUID}`],
    [`VMWARE-CLOUD-DIRECTOR://URN:VCLOUD:VM:${UUID.toUpperCase()}`, `vm-${UUID}`],
    [`vmware-cloud-director://${UUID}`, `vm-${UUID}`],
    [UUID, `vm-${UUID}`],
    [`urn:vcloud:vm:${UUID}`, `vm-${UUID}`],
    [`vm-${UUID}`, `vm-${UUID}`],
    ['aws:///eu-west-1b/i-0c77310fe2667e4ce', undefined],
    [`vsphere://${UUID}`, undefined],
    ['vmware-cloud-director://not-a-vm', undefined],
    ['vmware-cloud-director://https://vcd.example.com/tenant/acme', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%s → %s', (providerID, id) => {
    expect(vmIdOfProvider(providerID)).toBe(id);
  });
});

describe('several VMs in one query', () => {
  it('or-s one group per VM: by bare id, or by name in the vApp', () => {
    const path = queryPath({ any: [{ id: `vm-${UUID}` }, { name: 'worker-4', vapp: 'k8s' }, { name: 'a,b' }] });
    const filter = decodeURIComponent(/filter=([^&]*)/.exec(path)![1]);
    expect(filter).toBe(`(id==${UUID};isVAppTemplate==false,name==worker-4;containerName==k8s;isVAppTemplate==false,name==a*b;isVAppTemplate==false)`);
  });
  it('one VM by name reads as before', () => {
    expect(queryPath({ name: 'web-01', vapp: 'shop' })).toContain(encodeURIComponent('(name==web-01;containerName==shop;isVAppTemplate==false)'));
  });
});

describe('the VM facts in the result', () => {
  const result = {
    state: State.CRITICAL,
    summary: '2 of 3 nodes failing: a, b',
    items: [
      { name: 'a', state: State.CRITICAL, text: 'a: Ready=False' },
      { name: 'b', state: State.CRITICAL, text: 'b: Ready=Unknown' },
      { name: '', state: State.OK, text: '1 node healthy' },
    ],
    metrics: [{ label: 'failing', value: 2 }],
  };
  it("go to the failing nodes' lines and the summary, never to the state or the perfdata", () => {
    const facts = new Map([
      ['a', { kind: 'vm' as const, id: `vm-${UUID}`, name: 'a', power: 'powered off' }],
      ['b', { kind: 'vm' as const, id: `vm-${UUID}`, name: 'b', power: 'running', cpu: 100, mem: 41.26 }],
    ]);
    const out = withVmFacts(result, { facts, notLookedUp: [], maxNodes: 10 });
    expect(out.state).toBe(State.CRITICAL);
    expect(out.metrics).toEqual(result.metrics);
    expect(out.items!.map((i) => i.text)).toEqual([
      `a: Ready=False; VM a (vm-${UUID}) powered off`,
      `b: Ready=Unknown; VM b (vm-${UUID}) running, cpu 100%, mem 41.3%`,
      '1 node healthy',
    ]);
    expect(out.summary).toBe('2 of 3 nodes failing: a, b; VMs: a VM powered off, b VM cpu 100% mem 41.3%');
  });
  it('vCD missing: one phrase, the lines as they were', () => {
    const out = withVmFacts(result, { facts: new Map(), notLookedUp: [], maxNodes: 10, missing: 'https://vcd: refused' });
    expect(out.items).toEqual(result.items);
    expect(out.summary).toBe('2 of 3 nodes failing: a, b; VM facts missing: https://vcd: refused');
  });
  it('beyond --vcd-max-nodes: said not looked up', () => {
    const out = withVmFacts(result, { facts: new Map([['a', { kind: 'none' as const, how: 'no VM named "a"' }]]), notLookedUp: ['b'], maxNodes: 1 });
    expect(out.items![1].text).toBe('b: Ready=Unknown; VM not looked up (--vcd-max-nodes 1)');
    expect(out.summary).toBe('2 of 3 nodes failing: a, b; VMs: a no VM found; 1 failing node not looked up in vCD (--vcd-max-nodes 1)');
  });
  it('a running VM without metrics says why', () => {
    expect(describeVmFact({ kind: 'vm', id: 'vm-x', name: 'x', power: 'running', problem: 'HTTP 403' })).toBe('VM x (vm-x) running, no metrics: HTTP 403');
  });
});
