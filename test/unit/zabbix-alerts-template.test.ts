// The Zabbix template of check_cluster_alerts, its preprocessing run on the plugin's own JSON:
// each rule's state item reads its rule from `rules`, a rule not named is OK, and a failed run
// (no `rules`) leaves the last value (the JSONPath step discards it).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const REPO = resolve(__dirname, '../..');
type Step = { type: string; parameters: string[]; error_handler?: string };
type Item = {
  key: string;
  preprocessing?: Step[];
  trigger_prototypes?: Array<{ name: string; expression: string; dependencies?: Array<{ expression: string }> }>;
};
const doc = parse(readFileSync(join(REPO, 'contrib/zabbix/cloudchecks_templates.yaml'), 'utf8')) as {
  zabbix_export: { templates: Array<{ template: string; items: Item[]; discovery_rules: Array<{ item_prototypes: Item[] }> }> };
};
const template = doc.zabbix_export.templates.find((t) => t.template === 'cloudchecks cluster alerts')!;
const prototype = (prefix: string) => template.discovery_rules[0].item_prototypes.find((i) => i.key.startsWith(prefix))!;

/** Runs an item's preprocessing as Zabbix does for these steps: JSONPath `$.rules` (discard when absent), then the JavaScript. */
function preprocess(item: Item, rule: string, output: object): unknown {
  const [path, js] = item.preprocessing!;
  expect(path).toMatchObject({ type: 'JSONPATH', parameters: ['$.rules'], error_handler: 'DISCARD_VALUE' });
  const rules = (output as { rules?: unknown }).rules;
  if (rules === undefined) return 'discarded';
  return new Function('value', js.parameters[0].replaceAll('{#ALERTNAME}', rule))(JSON.stringify(rules));
}

describe('cloudchecks cluster alerts: the rule items', () => {
  const firing = {
    state: 'CRITICAL',
    code: 2,
    rules: { etcdMembersDown: { state: 'CRITICAL', code: 2, summary: '1 alert firing (critical): openshift-etcd' } },
  };
  it('a firing rule its code and summary; a rule not named OK "not firing"; a failed run discarded', () => {
    const code = prototype('cloudchecks.alerts.rule.code[');
    const summary = prototype('cloudchecks.alerts.rule.summary[');
    expect(preprocess(code, 'etcdMembersDown', firing)).toBe(2);
    expect(preprocess(summary, 'etcdMembersDown', firing)).toBe('1 alert firing (critical): openshift-etcd');
    expect(preprocess(code, 'TargetDown', firing)).toBe(0);
    expect(preprocess(summary, 'TargetDown', firing)).toBe('not firing');
    expect(preprocess(code, 'etcdMembersDown', { state: 'UNKNOWN', code: 3, summary: 'connection refused', items: [], metrics: [] })).toBe('discarded');
  });

  it("every rule trigger waits on the pipeline's: cannot be read, no result, no Watchdog", () => {
    const code = prototype('cloudchecks.alerts.rule.code[');
    for (const t of code.trigger_prototypes!) {
      const deps = (t.dependencies ?? []).map((d) => d.expression);
      expect(deps, t.name).toEqual(
        expect.arrayContaining([
          'last(/cloudchecks cluster alerts/cloudchecks.alerts.code)=3',
          'nodata(/cloudchecks cluster alerts/cloudchecks.alerts.code,{$CLOUDCHECKS.ALERTS.NODATA})=1',
          'last(/cloudchecks cluster alerts/cloudchecks.alerts.pipeline)=2',
        ]),
      );
    }
  });
});
