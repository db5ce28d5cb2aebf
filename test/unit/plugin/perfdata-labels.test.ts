// Labels from names: unique within one output and stable from run to run, whatever the names.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatLabel } from '../../../lib/plugin/perfdata';
import { namePart, PerfdataLabels } from '../../../lib/plugin/perfdata-labels';
import { collidingName } from '../../support/colliding-names';

describe('namePart', () => {
  it('keeps a clean name as it is, hashes any other', () => {
    expect(namePart('acme')).toBe('acme');
    expect(namePart('gold_ssd')).toBe('gold_ssd');
    expect(namePart('acme-prod')).toBe('acme-prod');
    expect(namePart('acme--prod')).toMatch(/^acme--prod_h[0-9a-f]{8}$/);
    expect(namePart('Gold')).toMatch(/^gold_h[0-9a-f]{8}$/);
    expect(namePart('x storage')).toMatch(/^x_storage_h[0-9a-f]{8}$/);
    expect(namePart('***')).toMatch(/^h[0-9a-f]{8}$/);
    // A clean name that looks like a hashed part is hashed itself: the two kinds never meet.
    expect(namePart('x_h0badcafe')).toMatch(/^x_h0badcafe_h[0-9a-f]{8}$/);
    expect(namePart('a'.repeat(41))).toMatch(/^a{40}_h[0-9a-f]{8}$/);
  });

  it('is the same name after name (no state, no other names involved)', () => {
    expect(namePart('X Storage')).toBe(namePart('X Storage'));
    expect(namePart('X Storage')).not.toBe(namePart('x storage'));
  });

  it('differs for different names, and never holds __ nor an edge _', () => {
    fc.assert(
      fc.property(collidingName, collidingName, (a, b) => {
        const pa = namePart(a);
        expect(pa).toMatch(/^[a-z0-9]+([-_]{1,3}[a-z0-9]+)*$/);
        expect(pa).not.toContain('__');
        if (a !== b) expect(pa).not.toBe(namePart(b));
      }),
      { numRuns: 300, seed: 28 },
    );
  });
});

describe('PerfdataLabels', () => {
  it('joins the parts and the measure with __, and never gives a label twice', () => {
    const labels = new PerfdataLabels();
    expect(labels.label(['acme', 'prod'], 'cpu_pct')).toBe('acme__prod__cpu_pct');
    expect(labels.label(['acme', 'prod'], 'cpu_pct')).toBe('acme__prod__cpu_pct__2');
    expect(labels.label(['acme', 'prod'], 'cpu_pct')).toBe('acme__prod__cpu_pct__3');
    expect(() => labels.label(['x'], 'Bad measure')).toThrow();
  });

  it('gives distinct (names, measure) distinct labels, the same whatever else the output holds', () => {
    const measure = fc.constantFrom('cpu', 'cpu_pct', 'storage', 'storage_pct', 'vms', 'vms_running');
    const entry = fc.tuple(fc.array(collidingName, { minLength: 1, maxLength: 3 }), measure);
    fc.assert(
      fc.property(fc.uniqueArray(entry, { maxLength: 12, selector: (e) => JSON.stringify(e) }), (entries) => {
        const labels = new PerfdataLabels();
        const given = entries.map(([names, m]) => labels.label(names, m));
        expect(new Set(given).size).toBe(given.length);
        // Stable: each label is what that entry gets alone, in a run of its own.
        entries.forEach(([names, m], i) => expect(new PerfdataLabels().label(names, m)).toBe(given[i]));
        // Inert: nothing to quote in the perfdata.
        for (const l of given) expect(formatLabel(l)).toBe(l);
      }),
      { numRuns: 300, seed: 28 },
    );
  });
});

describe('PerfdataLabels at scale', () => {
  it('gives 20,000 labels of one name in linear time, each counted once', () => {
    const labels = new PerfdataLabels();
    const given = Array.from({ length: 20_000 }, () => labels.label(['x'], 'cpu_pct'));
    expect(given.slice(0, 3)).toEqual(['x__cpu_pct', 'x__cpu_pct__2', 'x__cpu_pct__3']);
    expect(new Set(given).size).toBe(20_000);
  });
});
