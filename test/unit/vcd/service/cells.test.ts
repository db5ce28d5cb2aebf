// The cells as the CloudAPI (status from 38.1) and the cell query list them, read from documents
// built from the API reference (test/fixtures/vcd/provider/README.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cellServes, describeCell, parseCellRecords, parseCloudApiCells } from '../../../../lib/vcd/service/cells';

const fixture = (name: string) => readFileSync(join(__dirname, '../../../fixtures/vcd/provider', name));

describe('cells', () => {
  it('37.x: isActive only', () => {
    const { cells } = parseCloudApiCells(fixture('cells-cloudapi-schema-api37.json'), 'cells');
    expect(cells.map((c) => [c.name, cellServes(c), describeCell(c)])).toEqual([
      ['vcd-ams-cell01', true, 'serving'],
      ['vcd-ams-cell02', false, 'not active'],
    ]);
  });

  it('39.1: a status other than ACTIVE does not serve, although isActive is true', () => {
    const { cells } = parseCloudApiCells(fixture('cells-cloudapi-schema-api39.1.json'), 'cells');
    expect(cells.map((c) => [c.name, cellServes(c), describeCell(c)])).toEqual([
      ['cell-01', true, 'serving'],
      ['cell-02', false, 'MAINTENANCE'],
      ['cell-03', false, 'QUIESCED'],
    ]);
  });

  it('the cell query: isActive as 1/0', () => {
    const cells = parseCellRecords(fixture('cell-records-schema-api34.xml').toString('utf8'), 'cells');
    expect(cells.map((c) => [c.name, cellServes(c), c.version])).toEqual([
      ['vcd-ams-cell01', true, '10.1.0.15884543'],
      ['vcd-ams-cell02', false, '10.1.0.15884543'],
    ]);
  });

  it('a cell that says nothing of its state is no serving cell; broken answers are refused', () => {
    expect(cellServes({ name: 'x' })).toBe(false);
    expect(describeCell({ name: 'x' })).toBe('state unknown');
    expect(() => parseCloudApiCells(Buffer.from('<html/>'), 'cells')).toThrow(/not JSON/);
    expect(() => parseCloudApiCells(Buffer.from('{"items":[]}'), 'cells')).toThrow(/no "values" list/);
    expect(() => parseCloudApiCells(Buffer.from('{"values":' + '['.repeat(30_000) + ']'.repeat(30_000) + '}'), 'cells')).toThrow(/far more than 1000 cells/);
  });
});
