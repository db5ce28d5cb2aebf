import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node } from '../../../lib/cluster/node';
import { NodeListSyntaxError, scanNodeList } from '../../../lib/cluster/node-list-scan';
import { largeNodes } from '../../../sim/cluster/scenarios/large';
import { sickNodes } from '../../../sim/cluster/scenarios/sick';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function pick(v: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (k in v) out[k] = v[k];
  return out;
}

/** Conditions keep type, status, reason, message and lastTransitionTime; addresses type and address. */
const pairs = (v: unknown, ...keys: string[]) => (Array.isArray(v) ? v.map((e) => (isObject(e) ? pick(e, ['type', ...keys]) : e)) : v);

/** What the scanner must return for a node: the fields of `Node`, as JSON.parse reads them. */
function reduce(n: Record<string, unknown>): Node {
  const out: Record<string, Record<string, unknown>> = {};
  if (isObject(n.metadata)) out.metadata = pick(n.metadata, ['name']);
  if (isObject(n.spec)) out.spec = pick(n.spec, ['unschedulable']);
  if (isObject(n.status)) {
    out.status = pick(n.status, ['conditions', 'addresses']);
    if ('conditions' in out.status) out.status.conditions = pairs(out.status.conditions, 'status', 'reason', 'message', 'lastTransitionTime');
    if ('addresses' in out.status) out.status.addresses = pairs(out.status.addresses, 'address');
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
  it('on the simulator\'s sick and large scenarios', () => {
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
    expectSameAsJsonParse(JSON.stringify({ kind: 'NodeList', items: [tricky, {}, { status: {} }] }, null, 2));
  });

  it('with escaped key names and members in any order (metadata after the items)', () => {
    const text = '{"items":[{"status":{"conditions":[{"type":"Ready","status":"True"}]},"meta\\u0064ata":{"n\\u0061me":"w1"}}],"metadata":{"continue":"abc"},"kind":"NodeList"}';
    expectSameAsJsonParse(text);
    const heads: unknown[] = [];
    scanNodeList(Buffer.from(text), () => undefined, (h) => heads.push({ ...h }));
    expect(heads).toEqual([{ items: -1 }]); // no continue token yet: the caller pages sequentially
  });

  it('hands the continue token over before the items when the metadata comes first', () => {
    const seen: string[] = [];
    scanNodeList(Buffer.from(list([{ metadata: { name: 'a' } }], { continue: 'tok' })), () => seen.push('node'), (h) => seen.push(`head:${h.continue}`));
    expect(seen).toEqual(['head:tok', 'node']);
  });

  it('on generated node lists (property)', () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', ':', '\\"', '\u0000'));
    const json = fc.jsonValue({ maxDepth: 3 });
    const condition = fc.oneof(
      fc.record({ type: text, status: fc.oneof(fc.constantFrom('True', 'False', 'Unknown'), json), message: text, lastHeartbeatTime: text }, { requiredKeys: ['type'] }),
      json,
    );
    const node = fc.record(
      {
        metadata: fc.record({ name: text, labels: fc.dictionary(text, text), extra: json }, { requiredKeys: [] }),
        spec: fc.record({ unschedulable: fc.boolean(), taints: json }, { requiredKeys: [] }),
        status: fc.record({ conditions: fc.array(condition), addresses: fc.array(fc.record({ type: text, address: text })), images: json }, { requiredKeys: [] }),
        other: json,
      },
      { requiredKeys: [] },
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
    ['a non-object item', '{"items":[1]}'],
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
