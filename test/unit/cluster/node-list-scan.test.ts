import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node } from '../../../lib/cluster/node';
import { NodeListShapeError, NodeListSyntaxError, scanNodeList } from '../../../lib/cluster/node-list-scan';
import { largeNodes } from '../../../sim/cluster/scenarios/large';
import { sickNodes } from '../../../sim/cluster/scenarios/sick';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function pick(v: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (k in v) out[k] = v[k];
  return out;
}

/** Conditions and addresses keep two members each: `type` and `status` or `address`. */
const pairs = (v: unknown, ...keys: string[]) => (Array.isArray(v) ? v.map((e) => (isObject(e) ? pick(e, ['type', ...keys]) : e)) : v);

/** A string an option reads (providerID, the hostname label): kept when short and printable, else left out. */
const optionalText = (v: unknown) => (typeof v === 'string' && v.length <= 316 && !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(v) ? v : undefined);

/** What the scanner must return for a node: the fields of `Node`, as JSON.parse reads them. */
function reduce(n: Record<string, unknown>): Node {
  const out: Record<string, Record<string, unknown>> = {};
  if (isObject(n.metadata)) {
    out.metadata = pick(n.metadata, ['name']);
    // Of the labels only the hostname, and only a printable one (the --vcd-* lookup's).
    const host = isObject(n.metadata.labels) ? n.metadata.labels['kubernetes.io/hostname'] : undefined;
    if (optionalText(host) !== undefined) out.metadata.labels = { 'kubernetes.io/hostname': host };
  }
  if (isObject(n.spec)) {
    out.spec = pick(n.spec, ['unschedulable']);
    if (optionalText(n.spec.providerID) !== undefined) out.spec.providerID = n.spec.providerID;
  }
  if (isObject(n.status)) {
    out.status = pick(n.status, ['conditions', 'addresses']);
    // A null list (Go's nil) reads as absent.
    for (const k of ['conditions', 'addresses']) if (out.status[k] === null) delete out.status[k];
    if ('conditions' in out.status) out.status.conditions = pairs(out.status.conditions, 'status', 'reason', 'message', 'lastTransitionTime');
    if ('addresses' in out.status) out.status.addresses = pairs(out.status.addresses, 'address');
    // Of allocatable, capacity and nodeInfo only the string members --pods and --version-skew read.
    for (const [k, member] of [
      ['allocatable', 'pods'],
      ['capacity', 'pods'],
      ['nodeInfo', 'kubeletVersion'],
    ] as const) {
      const v = n.status[k];
      if (isObject(v)) out.status[k] = typeof v[member] === 'string' ? { [member]: v[member] } : {};
    }
  }
  return out as Node;
}

function scan(text: string) {
  const nodes: Node[] = [];
  const page = scanNodeList(Buffer.from(text), (n) => nodes.push(n));
  return { page, nodes };
}

function expectSameAsJsonParse(text: string): void {
  const doc = JSON.parse(text) as { kind?: unknown; metadata?: { continue?: unknown }; items: Array<Record<string, unknown>> };
  const { page, nodes } = scan(text);
  expect(nodes).toEqual(doc.items.map(reduce));
  expect(page.items).toBe(doc.items.length);
  expect(page.kind).toEqual(doc.kind);
  const cont = doc.metadata?.continue;
  expect(page.continue).toEqual(typeof cont === 'string' && cont !== '' ? cont : undefined);
}

const list = (items: unknown[], metadata: object = { resourceVersion: '1' }) => JSON.stringify({ kind: 'NodeList', apiVersion: 'v1', metadata, items });

describe('scanNodeList reads what JSON.parse reads', () => {
  it("on the simulator's sick and large scenarios", () => {
    expectSameAsJsonParse(list([...sickNodes()], { resourceVersion: '5', continue: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ', remainingItemCount: 3 }));
    expectSameAsJsonParse(list([...largeNodes(40)]));
  });

  it('with pretty-printed JSON, escapes, unicode and brackets inside strings', () => {
    const tricky = {
      metadata: { name: 'wörker-\u00e9-"1"', annotations: { 'a"}]': '{"x":[1,2]}\\', 'b\\': '\\\\"' }, labels: { 'x/y': '' } },
      spec: { taints: [{ key: 'k', effect: 'NoSchedule' }], unschedulable: false },
      status: {
        conditions: [{ type: 'Ready', status: 'True', message: 'ok "quoted" \\ \n \u2603 ]}' }],
        addresses: [{ type: 'Hostname', address: 'w1' }],
        images: [{ names: ['a@sha256:00'], sizeBytes: 1.5e9 }],
        nodeInfo: { bootID: '', x: null, y: true, z: -0.25 },
      },
    };
    expectSameAsJsonParse(
      JSON.stringify(
        {
          kind: 'NodeList',
          items: [tricky, { metadata: { name: 'bare' } }, { metadata: { name: 'x' }, spec: null, status: { conditions: null, addresses: [] } }],
        },
        null,
        2,
      ),
    );
  });

  it('with escaped key names and members in any order (metadata after the items)', () => {
    const text =
      '{"items":[{"status":{"conditions":[{"type":"Ready","status":"True"}]},"meta\\u0064ata":{"n\\u0061me":"w1"}}],"metadata":{"continue":"abc"},"kind":"NodeList"}';
    expectSameAsJsonParse(text);
    const heads: unknown[] = [];
    scanNodeList(
      Buffer.from(text),
      () => undefined,
      (h) => heads.push({ ...h }),
    );
    expect(heads).toEqual([{ items: -1 }]); // no continue token yet: the caller pages sequentially
  });

  it('hands the continue token over before the items when the metadata comes first', () => {
    const seen: string[] = [];
    scanNodeList(
      Buffer.from(list([{ metadata: { name: 'a' } }], { continue: 'tok' })),
      () => seen.push('node'),
      (h) => seen.push(`head:${h.continue}`),
    );
    expect(seen).toEqual(['head:tok', 'node']);
  });

  it('on generated node lists (property)', () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', ':', '\\"', '\u0000'));
    const json = fc.jsonValue({ maxDepth: 3 });
    // Every shape the API allows (what it does not allow is refused, see below); the values
    // the check prints are free of control characters, as the API server's validation keeps them.
    const shown = text.filter((t) => t.length <= 253 && !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(t));
    const condition = fc.record(
      { type: shown, status: fc.oneof(fc.constantFrom('True', 'False', 'Unknown'), shown), message: text, lastHeartbeatTime: text, extra: json },
      { requiredKeys: ['type', 'status'] },
    );
    const node = fc.record(
      {
        metadata: fc.record({ name: shown.filter((t) => t.length > 0), labels: fc.dictionary(text, text), extra: json }, { requiredKeys: ['name'] }),
        spec: fc.record({ unschedulable: fc.boolean(), taints: json }, { requiredKeys: [] }),
        status: fc.record(
          { conditions: fc.array(condition), addresses: fc.array(fc.record({ type: shown, address: shown })), images: json },
          { requiredKeys: [] },
        ),
        other: json,
      },
      { requiredKeys: ['metadata'] },
    );
    fc.assert(
      fc.property(fc.array(node, { maxLength: 5 }), fc.option(text), fc.boolean(), (items, cont, pretty) => {
        expectSameAsJsonParse(JSON.stringify({ kind: 'NodeList', metadata: cont === null ? {} : { continue: cont }, items }, null, pretty ? 1 : undefined));
      }),
      { numRuns: 300 },
    );
  });
});

describe('scanNodeList refuses what is not a well-formed document', () => {
  const good = list([...sickNodes()].slice(0, 2), { continue: 'x' });

  it('every truncation of a page', () => {
    for (let cut = 0; cut < good.length - 1; cut += 7) {
      expect(() => scan(good.slice(0, cut)), `cut at ${cut}`).toThrow(NodeListSyntaxError);
    }
  });

  it.each([
    ['an HTML page', '<!DOCTYPE html><html><body>Application is not available</body></html>'],
    ['plain text', 'Unauthorized'],
    ['an empty body', ''],
    ['text after the document', '{"items":[]} x'],
    ['a missing comma', '{"kind":"NodeList" "items":[]}'],
    ['a bad literal', '{"kind":NodeList,"items":[]}'],
  ])('%s', (_, text) => {
    expect(() => scan(text)).toThrow(NodeListSyntaxError);
  });

  it('reports a document without an items array as items -1, and the kind it has', () => {
    expect(scan('{"kind":"Status","status":"Failure","message":"x","code":500}').page).toEqual({ kind: 'Status', items: -1 });
    expect(scan('{"items":null}').page.items).toBe(-1);
    expect(scan('{}').page.items).toBe(-1);
    expect(scan(' { "items" : [ ] } \n').page.items).toBe(0);
  });
});

// A body that is JSON but whose items break the API's own shape (a broken proxy, another
// API, a hostile server) gets no verdict: the first bad field is named.
describe('scanNodeList refuses items that are not nodes, naming the first bad field', () => {
  const ok = {
    metadata: { name: 'worker-1' },
    status: { conditions: [{ type: 'Ready', status: 'True' }], addresses: [{ type: 'Hostname', address: 'worker-1' }] },
  };
  it.each([
    ['a number as item', [ok, 1], 'items[1] is a number, not an object (a node)'],
    ['an array as item', [[ok]], 'items[0] is an array, not an object (a node)'],
    ['an empty object', [{}], 'items[0].metadata is missing'],
    ['no name', [{ metadata: { uid: 'x' } }], 'items[0].metadata.name is missing'],
    ['an empty name', [{ metadata: { name: '' } }], 'items[0].metadata.name is empty'],
    ['a numeric name', [ok, { metadata: { name: 42 } }], 'items[1].metadata.name is a number, not a string'],
    ['a name object', [{ metadata: { name: { first: 'w' } } }], 'items[0].metadata.name is an object, not a string'],
    ['metadata a string', [{ metadata: 'worker-1' }], 'items[0].metadata is a string, not an object'],
    ['conditions an object', [{ ...ok, status: { conditions: { Ready: 'True' } } }], 'items[0].status.conditions is an object, not an array'],
    ['conditions a string', [{ ...ok, status: { conditions: 'Ready' } }], 'items[0].status.conditions is a string, not an array'],
    [
      'a condition not an object',
      [{ ...ok, status: { conditions: [{ type: 'Ready', status: 'True' }, 'MemoryPressure'] } }],
      'items[0].status.conditions[1] is a string, not an object',
    ],
    ['a condition without type', [{ ...ok, status: { conditions: [{ status: 'True' }] } }], 'items[0].status.conditions[0].type is missing'],
    ['a condition without status', [{ ...ok, status: { conditions: [{ type: 'Ready' }] } }], 'items[0].status.conditions[0].status is missing'],
    [
      'a boolean status',
      [{ ...ok, status: { conditions: [{ type: 'Ready', status: true }] } }],
      'items[0].status.conditions[0].status is a boolean, not a string',
    ],
    ['a numeric type', [{ ...ok, status: { conditions: [{ type: 1, status: 'True' }] } }], 'items[0].status.conditions[0].type is a number, not a string'],
    ['addresses an object', [{ ...ok, status: { addresses: { Hostname: 'w' } } }], 'items[0].status.addresses is an object, not an array'],
    ['an address without address', [{ ...ok, status: { addresses: [{ type: 'Hostname' }] } }], 'items[0].status.addresses[0].address is missing'],
    ['status a string', [{ ...ok, status: 'Ready' }], 'items[0].status is a string, not an object'],
    ['spec an array', [{ ...ok, spec: [] }], 'items[0].spec is an array, not an object'],
    ['unschedulable a string', [{ ...ok, spec: { unschedulable: 'true' } }], 'items[0].spec.unschedulable is a string, not a boolean'],
    // Values the check prints: a newline or U+2028 would forge a line of the output.
    ['a name with a newline', [{ metadata: { name: 'w1\n[OK] fake: healthy' } }], 'items[0].metadata.name holds control or line-separator characters'],
    [
      'a condition type with U+2028',
      [{ ...ok, status: { conditions: [{ type: 'Ready\u2028x', status: 'True' }] } }],
      'items[0].status.conditions[0].type holds control or line-separator characters',
    ],
    [
      'an address with NUL',
      [{ ...ok, status: { addresses: [{ type: 'Hostname', address: 'w\u0000' }] } }],
      'items[0].status.addresses[0].address holds control or line-separator characters',
    ],
    ['a 300-character name', [{ metadata: { name: 'w'.repeat(300) } }], 'items[0].metadata.name is 300 characters long, more than the API allows (253)'],
  ])('%s', (_, items, message) => {
    const error = (() => {
      try {
        scan(list(items));
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(NodeListShapeError);
    expect((error as Error).message).toBe(message);
  });

  it('refuses a continue token that is not a string', () => {
    expect(() => scan(list([ok], { continue: 7 }))).toThrow('metadata.continue is a number, not a string');
  });

  it('takes null for an absent list or object, as Go encodes a nil one', () => {
    const { nodes } = scan(list([{ metadata: { name: 'w' }, spec: null, status: { conditions: null, addresses: null } }]));
    expect(nodes).toEqual([{ metadata: { name: 'w' }, status: {} }]);
  });

  it('still reports a truncated value as a syntax error', () => {
    expect(() => scan('{"items":[{"metadata":{"name":["w1"')).toThrow(NodeListSyntaxError);
  });
});
