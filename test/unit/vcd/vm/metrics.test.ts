import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeVcdError, parseVcdError } from '../../../../lib/vcd/api/vcd-error';
import { parseCurrentUsage, parseHistoricUsage } from '../../../../lib/vcd/vm/metrics';
import { CheckError } from '../../../../lib/plugin/errors';

const fixture = (name: string) => readFileSync(join(__dirname, '../../../fixtures/vcd', name), 'utf8');

describe('parseCurrentUsage', () => {
  it.each(['current-usage.xml', 'current-usage-prefixed.xml'])('reads the eight metrics of %s and the per-disk ones, ignoring extra names', (file) => {
    const usage = parseCurrentUsage(fixture(file));
    expect(
      [...usage.values()]
        .filter((m) => m.disk === undefined)
        .map((m) => m.name)
        .sort(),
    ).toEqual([
      'cpu.usage.average',
      'cpu.usage.maximum',
      'cpu.usagemhz.average',
      'disk.provisioned.latest',
      'disk.read.average',
      'disk.used.latest',
      'disk.write.average',
      'mem.usage.average',
    ]);
    expect(usage.get('cpu.usage.average')).toEqual({ name: 'cpu.usage.average', base: 'cpu.usage.average', unit: 'PERCENT', value: 33.7 });
    expect(usage.get('disk.write.average')?.value).toBe(340.25);
    expect(usage.get('disk.used.latest')?.value).toBe(43000000);
  });

  it('keeps the per-disk names beside the whole-VM ones', () => {
    const usage = parseCurrentUsage(fixture('current-usage.xml'));
    expect(
      [...usage.values()]
        .filter((m) => m.disk !== undefined)
        .map((m) => m.name)
        .sort(),
    ).toEqual([
      'disk.provisioned.latest.2000',
      'disk.provisioned.latest.2001',
      'disk.read.average.0',
      'disk.read.average.1',
      'disk.used.latest.2000',
      'disk.used.latest.2001',
      'disk.write.average.0',
      'disk.write.average.1',
    ]);
    expect(usage.get('disk.used.latest.2001')).toEqual({
      name: 'disk.used.latest.2001',
      base: 'disk.used.latest',
      disk: '2001',
      unit: 'KILOBYTE',
      value: 22028480,
    });
  });

  it('leaves out a metric the server did not send', () => {
    const usage = parseCurrentUsage(fixture('current-usage-no-tools.xml'));
    expect(usage.has('mem.usage.average')).toBe(false);
    expect(usage.get('cpu.usage.average')?.value).toBe(17.59);
  });

  it('refuses the wrong root element, naming it', () => {
    expect(() => parseCurrentUsage(fixture('historic-usage.xml'))).toThrow(
      /not a vCD CurrentUsage document \(root element \{http:\/\/www.vmware.com\/vcloud\/v1.5\}HistoricUsage/,
    );
    expect(() => parseCurrentUsage(fixture('session.xml'))).toThrow(/root element .*Session/);
  });

  it('refuses the right name in another namespace', () => {
    const xml = '<CurrentUsage xmlns="http://example.com/other"><Metric name="cpu.usage.average" unit="PERCENT" value="1"/></CurrentUsage>';
    expect(() => parseCurrentUsage(xml)).toThrow(
      /root element \{http:\/\/example.com\/other\}CurrentUsage, expected CurrentUsage in http:\/\/www.vmware.com\/vcloud\/v1.5/,
    );
    expect(() => parseCurrentUsage('<CurrentUsage/>')).toThrow(/root element CurrentUsage,/);
  });

  it.each([
    ['an HTML login page', '<!DOCTYPE html><html><head><title>Login</title></head><body><p>Sign in</body></html>'],
    ['JSON', '{"values":[]}'],
    ['an empty body', ''],
    ['a truncated document', fixture('current-usage.xml').slice(0, 700)],
  ])('says a body that is %s is not XML', (_, body) => {
    let error: unknown;
    try {
      parseCurrentUsage(body);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CheckError);
    expect((error as Error).message).toMatch(/^current metrics response is not XML \(.*\); check --url points at the vCD API$/);
  });

  it('turns an Error document into its message', () => {
    expect(() => parseCurrentUsage(fixture('error-powered-off.xml'))).toThrow(
      'current metrics response: the server answered with an error: The requested operation could not be executed since VM "old-04" is not running. (BAD_REQUEST)',
    );
  });

  it('refuses a value that is not a decimal', () => {
    const xml = fixture('current-usage.xml').replace('value="33.7"', 'value="33,7"');
    expect(() => parseCurrentUsage(xml)).toThrow(/metric cpu.usage.average has no valid decimal value \("33,7"\)/);
  });
});

describe('parseHistoricUsage', () => {
  it('reads only the wanted series when asked', () => {
    const history = parseHistoricUsage(fixture('historic-usage.xml'), undefined, new Set(['mem.usage.average']));
    expect([...history.keys()]).toEqual(['mem.usage.average']);
  });
  it.each(['historic-usage.xml', 'historic-usage-prefixed.xml'])('reads the series of %s in any order', (file) => {
    const history = parseHistoricUsage(fixture(file));
    expect([...history.keys()].filter((k) => history.get(k)?.disk !== undefined).sort()).toEqual(['disk.read.average.0', 'disk.used.latest.2000']);
    expect([...history.keys()].filter((k) => history.get(k)?.disk === undefined).sort()).toEqual([
      'cpu.usage.average',
      'cpu.usage.maximum',
      'cpu.usagemhz.average',
      'disk.provisioned.latest',
      'disk.read.average',
      'disk.used.latest',
      'disk.write.average',
      'mem.usage.average',
    ]);
    const cpu = history.get('cpu.usage.average');
    expect(cpu?.expectedInterval).toBe(300);
    expect(cpu?.unit).toBe('PERCENT');
    expect(cpu?.samples).toHaveLength(5);
    expect(cpu?.samples[0]).toEqual({ time: Date.parse('2024-05-05T06:50:03.001Z'), value: 80.4 });
    expect(history.get('disk.used.latest')?.expectedInterval).toBe(1800);
    expect(history.get('disk.used.latest')?.samples.map((s) => s.value)).toEqual([57000000, 57100000]);
    expect(history.get('disk.write.average')?.samples[1].value).toBe(4900.75);
  });

  it('sorts samples that arrive out of order', () => {
    const xml = fixture('historic-usage.xml').replace(
      '<Sample timestamp="2024-05-05T06:50:02.412Z" value="61.5"/>',
      '<Sample timestamp="2024-05-05T07:15:02.412Z" value="99"/>',
    );
    const mem = parseHistoricUsage(xml).get('mem.usage.average');
    expect(mem?.samples.at(-1)).toEqual({ time: Date.parse('2024-05-05T07:15:02.412Z'), value: 99 });
  });

  it('refuses a CurrentUsage document and a bad timestamp', () => {
    expect(() => parseHistoricUsage(fixture('current-usage.xml'))).toThrow(/not a vCD HistoricUsage document/);
    const xml = fixture('historic-usage.xml').replace('2024-05-05T07:10:01.250Z" value="81.4"', 'yesterday" value="81.4"');
    expect(() => parseHistoricUsage(xml)).toThrow(/series cpu.usage.average has a sample with an invalid timestamp "yesterday"/);
  });
});

describe('readers refuse values no VM produces, naming the metric', () => {
  const current = fixture('current-usage.xml');
  const historic = fixture('historic-usage.xml');
  it.each([
    ['-3', "metric cpu.usage.average is -3%, outside 0-100: the server's metrics are broken (ask the vCD provider)"],
    ['153.2', 'metric cpu.usage.average is 153.2%, outside 0-100'],
    ['1e308', 'metric cpu.usage.average has a value beyond any real measurement ("1e308"): the server\'s metrics are broken'],
  ])('current cpu.usage.average = %s', (value, message) => {
    expect(() => parseCurrentUsage(current.replace('value="33.7"', `value="${value}"`))).toThrow(message);
  });
  it('a percentage sample outside 0-100 in a series', () => {
    expect(() => parseHistoricUsage(historic.replace('value="83.2"', 'value="101"'))).toThrow(
      'a sample of cpu.usage.average (2024-05-05T06:55:04.333Z) is 101%, outside 0-100',
    );
  });
  it('bounds apply to PERCENT only: 0-100 edges pass, KILOBYTE counts may exceed 100', () => {
    const usage = parseCurrentUsage(
      current
        .replace('value="33.7"', 'value="100"')
        .replace('name="cpu.usage.maximum" unit="PERCENT" value="89.0"', 'name="cpu.usage.maximum" unit="PERCENT" value="0"'),
    );
    expect([usage.get('cpu.usage.average')?.value, usage.get('cpu.usage.maximum')?.value, usage.get('disk.used.latest')?.value]).toEqual([100, 0, 43000000]);
  });
  it('a metric the check does not read is not judged', () => {
    const usage = parseCurrentUsage(current.replace('value="44.0"', 'value="400"'), undefined, new Set(['cpu.usage.average']));
    expect([...usage.keys()]).toEqual(['cpu.usage.average']);
  });
});

describe('readers refuse a metric sent twice', () => {
  it('in CurrentUsage, naming it and both values', () => {
    const xml = fixture('current-usage.xml').replace(
      '<Metric name="cpu.ready.summation"',
      '<Metric name="mem.usage.average" unit="PERCENT" value="91.5"/>\n    <Metric name="cpu.ready.summation"',
    );
    expect(() => parseCurrentUsage(xml)).toThrow('the current metrics response has metric mem.usage.average twice (91.5 and 44): cannot tell which is right');
  });
  it('in HistoricUsage', () => {
    const xml = fixture('historic-usage.xml').replace(
      '<MetricSeries name="cpu.ready.summation"',
      '<MetricSeries name="cpu.usage.average" unit="PERCENT" expectedInterval="300"><Sample timestamp="2024-05-05T07:10:01.250Z" value="5"/></MetricSeries>\n    <MetricSeries name="cpu.ready.summation"',
    );
    expect(() => parseHistoricUsage(xml)).toThrow('the historic metrics response has series cpu.usage.average twice: cannot tell which is right');
  });
  it('a repeated name the check does not read, or an unknown one, is ignored', () => {
    const xml = fixture('current-usage.xml').replace(
      '<Metric name="mem.usage.average"',
      '<Metric name="cpu.ready.summation" unit="MILLISECOND" value="1"/>\n    <Metric name="mem.usage.average" unit="PERCENT" value="1"/>\n    <Metric name="mem.usage.average"',
    );
    expect(parseCurrentUsage(xml, undefined, new Set(['cpu.usage.average'])).get('cpu.usage.average')?.value).toBe(33.7);
  });
});

describe('per-disk only (a tenant without whole-VM disk names)', () => {
  it('reads each disk with its number', () => {
    const usage = parseCurrentUsage(fixture('current-usage-per-disk.xml'));
    expect(usage.has('disk.used.latest')).toBe(false);
    expect([...usage.values()].filter((m) => m.base === 'disk.used.latest').map((m) => [m.disk, m.value])).toEqual([
      ['0', 31457280],
      ['1', 99614720],
      ['2', 2097152],
    ]);
  });
});

describe('parseVcdError', () => {
  it('reads the XML Error document', () => {
    const e = parseVcdError(fixture('error-forbidden.xml'));
    expect(e).toMatchObject({ majorErrorCode: '403', minorErrorCode: 'ACCESS_TO_RESOURCE_IS_FORBIDDEN' });
    expect(describeVcdError(e!)).toMatch(/^Either you need some or all of the following rights .* \(ACCESS_TO_RESOURCE_IS_FORBIDDEN\)$/);
  });

  it('reads the CloudAPI JSON error and the OAuth error', () => {
    expect(parseVcdError('{"minorErrorCode":"UNAUTHORIZED","message":"Invalid credentials","stackTrace":null}')).toEqual({
      majorErrorCode: undefined,
      minorErrorCode: 'UNAUTHORIZED',
      message: 'Invalid credentials',
    });
    expect(describeVcdError(parseVcdError('{"error":"invalid_grant","error_description":"Invalid refresh token"}')!)).toBe(
      'Invalid refresh token (invalid_grant)',
    );
  });

  it('quotes a flood of server text as a bounded one-line excerpt', () => {
    const text = describeVcdError({
      minorErrorCode: `CODE${'Z'.repeat(100_000)}`,
      message: `[ 0f3c9a1e-1111 ] line one\nline\u2028two ${'x'.repeat(30_000_000)}`,
    });
    expect(text).toMatch(/^line one line two x+… \(\d+ more characters\) \(CODEZ+… \(\d+ more characters\)\)$/);
    expect(text.length).toBeLessThan(500);
  });

  it('does not build a JSON error of millions of arrays (JSON.parse cannot be interrupted)', () => {
    const started = Date.now();
    const before = process.memoryUsage().heapUsed;
    expect(parseVcdError(`{"message":${'['.repeat(5_000_000)}${']'.repeat(5_000_000)}}`)).toBeUndefined();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(100 * 1024 * 1024);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(parseVcdError(`{"message":"m","details":[${Array(100).fill('{}').join(',')}]}`)).toMatchObject({ message: 'm' });
  });

  it('returns undefined for anything else', () => {
    expect(parseVcdError('<html><body>Bad gateway</body></html>')).toBeUndefined();
    expect(parseVcdError('Service Unavailable')).toBeUndefined();
    expect(parseVcdError('{"kind":"Status"}')).toBeUndefined();
    expect(parseVcdError('')).toBeUndefined();
  });
});
