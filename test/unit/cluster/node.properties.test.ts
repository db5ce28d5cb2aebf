// Properties of the health rule and the page scanner on arbitrary input: the rule agrees
// with its definition for any set of conditions, and the scanner throws nothing but its
// syntax error, whatever bytes arrive.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyNode, parseHealthRule, type Node } from '../../../lib/cluster/node';
import { NodeListShapeError, NodeListSyntaxError, scanNodeList } from '../../../lib/cluster/node-list-scan';

const TYPES = [
  'Ready',
  'MemoryPressure',
  'DiskPressure',
  'PIDPressure',
  'NetworkUnavailable',
  'KernelDeadlock',
  'storage.kubernetes.io/CSIReady',
  'FrequentKubeletRestart',
];
const status = fc.constantFrom('True', 'False', 'Unknown', '', 'true', 'yes');
const conditions = fc.array(fc.record({ type: fc.constantFrom(...TYPES), status }), { maxLength: 10 });

describe('classifyNode properties', () => {
  it('healthy exactly when Ready=True is present and every other condition is False', () => {
    fc.assert(
      fc.property(conditions, fc.boolean(), (conds, cordoned) => {
        const node: Node = { metadata: { name: 'n' }, spec: { unschedulable: cordoned }, status: { conditions: conds } };
        const health = classifyNode(node);
        const ready = conds.some((c) => c.type === 'Ready');
        const expected = ready && conds.every((c) => (c.type === 'Ready' ? c.status === 'True' : c.status === 'False'));
        expect(health.healthy).toBe(expected);
        expect(health.broken.length === 0).toBe(expected);
        expect(health.cordoned).toBe(cordoned); // cordoning never hides or causes a failure
      }),
      { numRuns: 2000 },
    );
  });

  it('Unknown is never healthy, whatever the overrides', () => {
    fc.assert(
      fc.property(conditions, fc.subarray(TYPES.slice(1)), fc.subarray(TYPES.slice(1)), (conds, asTrue, ignored) => {
        const rule = parseHealthRule(
          asTrue.map((t) => `${t}=True`),
          ignored,
        );
        const health = classifyNode({ status: { conditions: conds } }, rule);
        const counted = conds.filter((c) => !rule.ignored.has(c.type));
        if (counted.some((c) => c.status === 'Unknown')) expect(health.healthy).toBe(false);
        if (!conds.some((c) => c.type === 'Ready')) expect(health.healthy).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on nodes of any shape', () => {
    fc.assert(
      // The scanner hands over objects only (it refuses other items); their members may be anything.
      fc.property(fc.anything(), fc.object(), (value, object) => {
        classifyNode(object as Node);
        classifyNode({ status: { conditions: value } } as Node);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('scanNodeList on arbitrary bytes', () => {
  it('throws nothing but NodeListSyntaxError or NodeListShapeError', () => {
    const noise = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.json({ maxDepth: 4 }),
      fc.json({ maxDepth: 4 }).map((j) => `{"kind":"NodeList","items":[${j}]}`),
      fc.tuple(fc.json({ maxDepth: 3 }), fc.nat(60)).map(([j, cut]) => `{"items":[{"status":{"conditions":[${j}]}}]}`.slice(0, cut)),
    );
    fc.assert(
      fc.property(noise, (text) => {
        try {
          scanNodeList(Buffer.from(text), () => undefined);
        } catch (error) {
          expect(error instanceof NodeListSyntaxError || error instanceof NodeListShapeError, String(error)).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
