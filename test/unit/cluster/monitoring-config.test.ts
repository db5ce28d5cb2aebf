import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readMonitoringConfig } from '../../../lib/cluster/monitoring-config';
import { CheckError } from '../../../lib/plugin/errors';
import { cpuNow } from '../../support/cpu-time';

const FIXTURES = join(__dirname, '../../fixtures/cluster/monitoring');
const NS = 'openshift-monitoring';
/** The ConfigMap as the API returns it, around a config.yaml fixture (see the fixtures' README). */
const configMap = (file: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cluster-monitoring-config', namespace: NS, resourceVersion: '31877642' },
  data: { 'config.yaml': readFileSync(join(FIXTURES, file), 'utf8') },
});

async function failure(doc: Record<string, unknown>): Promise<string> {
  try {
    await readMonitoringConfig(doc, NS);
  } catch (e) {
    expect(e).toBeInstanceOf(CheckError);
    return (e as Error).message;
  }
  throw new Error('expected a CheckError');
}

describe('readMonitoringConfig', () => {
  it.each([
    ['config-docs.yaml', true], // the product documentation's example
    ['config-comments.yaml', true], // comments after values, nested settings, quoted strings elsewhere
    ['config-flow.yaml', true], // {enableUserWorkload: true, ...}
    ['config-off-quoted-keys.yaml', false], // "enableUserWorkload": false with a quoted key
  ])('%s: enableUserWorkload %s', async (file, on) => {
    expect(await readMonitoringConfig(configMap(file), NS)).toEqual({
      userWorkload: on,
      source: `enableUserWorkload: ${on} in ConfigMap ${NS}/cluster-monitoring-config`,
    });
  });

  it('YAML 1.1 booleans, as the operator reads them (go-yaml v2): yes, on, True', async () => {
    for (const value of ['yes', 'on', 'True', 'TRUE']) {
      const doc = { kind: 'ConfigMap', data: { 'config.yaml': `enableUserWorkload: ${value}\n` } };
      expect((await readMonitoringConfig(doc, NS)).userWorkload, value).toBe(true);
    }
    expect((await readMonitoringConfig({ data: { 'config.yaml': 'enableUserWorkload: off' } }, NS)).userWorkload).toBe(false);
  });

  it('a missing ConfigMap, key or setting means off, the platform default, and says which', async () => {
    expect(await readMonitoringConfig(undefined, NS)).toEqual({ userWorkload: false, source: `no ConfigMap ${NS}/cluster-monitoring-config` });
    expect(await readMonitoringConfig({ kind: 'ConfigMap', metadata: { name: 'cluster-monitoring-config' } }, NS)).toEqual({
      userWorkload: false,
      source: `no config.yaml in ConfigMap ${NS}/cluster-monitoring-config`,
    });
    expect(await readMonitoringConfig(configMap('config-no-setting.yaml'), NS)).toEqual({
      userWorkload: false,
      source: `enableUserWorkload not set in ConfigMap ${NS}/cluster-monitoring-config`,
    });
    // The switch is read at the top level only, as the operator does.
    expect((await readMonitoringConfig(configMap('config-nested-wrongly.yaml'), NS)).userWorkload).toBe(false);
    for (const empty of ['', '# nothing yet\n', '---\n']) expect((await readMonitoringConfig({ data: { 'config.yaml': empty } }, NS)).userWorkload).toBe(false);
  });

  it('a quoted "true" is a string the operator refuses: UNKNOWN naming the line and the fix, not a guess', async () => {
    expect(await failure(configMap('config-quoted-true.yaml'))).toBe(
      `ConfigMap ${NS}/cluster-monitoring-config: enableUserWorkload at line 3 of config.yaml is "true", not a boolean, and the monitoring operator does not accept it; write enableUserWorkload: true (or false) without quotes`,
    );
    expect(await failure({ data: { 'config.yaml': 'enableUserWorkload:\n  - true\n' } })).toMatch(
      /enableUserWorkload at line 1 of config\.yaml is not a single value, not a boolean/,
    );
  });

  it('YAML that does not parse: UNKNOWN naming the ConfigMap and the line', async () => {
    expect(await failure(configMap('config-broken.yaml'))).toMatch(
      new RegExp(
        `^ConfigMap ${NS}/cluster-monitoring-config: config\\.yaml is not valid YAML at line 3 \\(.+\\); fix it with oc -n ${NS} edit configmap cluster-monitoring-config$`,
      ),
    );
    expect(await failure(configMap('config-tabs.yaml'))).toMatch(/config\.yaml is not valid YAML at line 3 /);
    expect(await failure({ data: { 'config.yaml': 'enableUserWorkload: true\nenableUserWorkload: false\n' } })).toMatch(
      /not valid YAML at line 2 \(Map keys must be unique\)/,
    );
    expect(await failure({ data: { 'config.yaml': '- enableUserWorkload: true\n' } })).toMatch(/config\.yaml is not a YAML mapping of settings/);
  });

  it('a document of another kind is refused', async () => {
    expect(await failure({ kind: 'Status', status: 'Failure' })).toMatch(/answered with kind "Status", not a ConfigMap/);
  });

  // Hostile servers: a ConfigMap no API server could hold is refused before the
  // YAML parser sees it; deep nesting and a flood of text end as one short message.
  it('a config.yaml over the 1 MiB a ConfigMap may hold is refused unparsed', async () => {
    const started = cpuNow();
    expect(await failure({ kind: 'ConfigMap', data: { 'config.yaml': `enableUserWorkload: true\n#${'x'.repeat(2_000_000)}` } })).toMatch(
      /: config\.yaml is 2000026 characters long, more than a ConfigMap may hold \(1 MiB\)/,
    );
    expect(cpuNow() - started).toBeLessThan(1000);
  });

  it('YAML nested deeper than any setting is refused before parsing; a huge quoted value is cut', async () => {
    const started = cpuNow();
    expect(await failure({ data: { 'config.yaml': `enableUserWorkload: ${'['.repeat(400_000)}${']'.repeat(400_000)}` } })).toMatch(
      /config\.yaml nests collections more than 256 deep, far more than any monitoring configuration; fix it with oc -n openshift-monitoring edit configmap cluster-monitoring-config$/,
    );
    expect(cpuNow() - started).toBeLessThan(1000);
    expect(
      await readMonitoringConfig({ data: { 'config.yaml': `enableUserWorkload: true\nprometheusK8s: ${'{a: '.repeat(200)}1${'}'.repeat(200)}` } }, NS),
    ).toMatchObject({ userWorkload: true });
    const quoted = await failure({ data: { 'config.yaml': `enableUserWorkload: "${'y'.repeat(500_000)}"` } });
    expect(quoted).toMatch(/is "y{60}… \(499940 more characters\)", not a boolean/);
    expect(quoted.length).toBeLessThan(400);
  });

  it('keys, anchors and tokens far beyond any configuration are refused or read within the time of a check', async () => {
    const keys = (n: number, value = (_i: number) => 'v') => Array.from({ length: n }, (_, i) => `k${i}: ${value(i)}`).join('\n');
    // 60,000 keys or 45,000 anchors (1 MiB) once took 14-37 s (the parser compared every key with every other).
    for (const text of [`enableUserWorkload: true\n${keys(60_000)}`, `enableUserWorkload: true\n${keys(45_000, (i) => `&a${i} v`)}`]) {
      const started = cpuNow();
      expect(await failure({ data: { 'config.yaml': text } })).toMatch(
        /config\.yaml holds more than 100000 YAML tokens, far more than any monitoring configuration; fix it with oc -n openshift-monitoring edit configmap cluster-monitoring-config$/,
      );
      expect(cpuNow() - started).toBeLessThan(2000);
    }
    const started = cpuNow();
    expect(await readMonitoringConfig({ data: { 'config.yaml': `${keys(10_000)}\nenableUserWorkload: true` } }, NS)).toMatchObject({ userWorkload: true });
    expect(await failure({ data: { 'config.yaml': `${keys(10_000)}\nk5: again` } })).toMatch(/not valid YAML at line 10001 \(Map keys must be unique\)/);
    expect(cpuNow() - started).toBeLessThan(3000);
  });

  it('a kind that is not a string is named by what it is', async () => {
    expect(await failure({ kind: JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown })).toMatch(
      /answered with a kind that is an array, not a ConfigMap/,
    );
  });
});
