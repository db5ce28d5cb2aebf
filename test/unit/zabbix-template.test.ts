// contrib/zabbix/cloudchecks_templates.yaml, read as Zabbix reads it. Zabbix 6.0 and 7.0 refuse
// the whole import when one uuid is not a UUIDv4 (CApiInputValidator::validateUuid checks the
// version nibble and the variant bits), and a check whose state has no trigger on UNKNOWN fails
// silently. The real import is test/integration/zabbix.test.ts.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const REPO = resolve(__dirname, '../..');
const TEXT = readFileSync(join(REPO, 'contrib/zabbix/cloudchecks_templates.yaml'), 'utf8');

interface Trigger {
  uuid: string;
  expression: string;
  name: string;
}
interface Item {
  uuid: string;
  name: string;
  type?: string;
  key: string;
  master_item?: { key: string };
  preprocessing?: Array<{ type: string; parameters: string[] }>;
  triggers?: Trigger[];
  trigger_prototypes?: Trigger[];
}
interface Template {
  uuid: string;
  template: string;
  items?: Item[];
  discovery_rules?: Array<{ uuid: string; key: string; item_prototypes?: Item[] }>;
  macros?: Array<{ macro: string }>;
}
const doc = parse(TEXT) as { zabbix_export: { version: string; templates: Template[] } };
const templates = doc.zabbix_export.templates;

/** Zabbix's rule, as in CApiInputValidator::validateUuid: 32 hex digits, version 4, variant 10xx. */
function isZabbixUuid(value: string): boolean {
  return /^[0-9a-fA-F]{12}4[0-9a-fA-F]{3}[89abAB][0-9a-fA-F]{15}$/.test(value);
}

function allUuids(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => allUuids(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'uuid') out.push(String(v));
      else allUuids(v, out);
    }
  }
  return out;
}

describe('contrib/zabbix/cloudchecks_templates.yaml', () => {
  it('is export format 6.0 (imports into 6.0 LTS, and into 7.0 LTS through its converter)', () => {
    expect(doc.zabbix_export.version).toBe('6.0');
  });

  it('the UUIDv4 rule itself: Zabbix refuses the old ids, accepts real v4 ones', () => {
    expect(isZabbixUuid('6c5af77ddb445bf983311fe7e2db0b66')).toBe(false); // the id the issue reports
    expect(isZabbixUuid('a0c25ed3b5b34d8e8bc6f4cf1b2c5d3e')).toBe(true);
    expect(isZabbixUuid('a0c25ed3b5b34d8e7bc6f4cf1b2c5d3e')).toBe(false); // variant 0xxx
    expect(isZabbixUuid('a0c25ed3b5b33d8e8bc6f4cf1b2c5d3e')).toBe(false); // version 3
  });

  it('every uuid is a UUIDv4, and unique', () => {
    const uuids = allUuids(doc);
    expect(uuids.length).toBeGreaterThan(50);
    expect(uuids.filter((u) => !isZabbixUuid(u))).toEqual([]);
    expect(new Set(uuids).size).toBe(uuids.length);
  });

  it('every check (item or prototype) has a state item from $.code with a trigger on UNKNOWN', () => {
    const checked: string[] = [];
    for (const t of templates) {
      const lists: Array<{ items: Item[]; proto: boolean }> = [{ items: t.items ?? [], proto: false }];
      for (const rule of t.discovery_rules ?? []) lists.push({ items: rule.item_prototypes ?? [], proto: true });
      for (const { items, proto } of lists) {
        for (const master of items.filter((i) => i.type === 'EXTERNAL')) {
          const state = items.find((i) => i.master_item?.key === master.key && i.preprocessing?.[0].parameters[0] === '$.code');
          expect(state, `${t.template}: ${master.key} has no state item`).toBeDefined();
          const triggers = (proto ? state!.trigger_prototypes : state!.triggers) ?? [];
          const unknown = triggers.find((tr) => tr.expression === `last(/${t.template}/${state!.key})=3`);
          expect(unknown, `${t.template}: ${state!.key} has no trigger on UNKNOWN`).toBeDefined();
          checked.push(master.key.replace(/\[.*/, ''));
        }
      }
    }
    expect(new Set(checked)).toEqual(
      new Set([
        'check_nodes',
        'check_cluster_monitoring',
        'check_cluster_operators',
        'check_vm_cpu',
        'check_vm_mem',
        'check_vm_disk',
        'check_vm_fleet',
        'check_vdc',
        'check_pvdc',
        'check_vcd',
      ]),
    );
  });

  it('holds nothing that Zabbix 7.0 converts differently on import (C64ImportConverter)', () => {
    // 7.0 re-escapes backslashes in the string parameters of trigger functions, and drops the
    // timeout of items other than HTTP agent and script: neither may occur here.
    const expressions = templates.flatMap((t) => [
      ...(t.items ?? []).flatMap((i) => (i.triggers ?? []).map((tr) => tr.expression)),
      ...(t.discovery_rules ?? []).flatMap((r) => (r.item_prototypes ?? []).flatMap((i) => (i.trigger_prototypes ?? []).map((tr) => tr.expression))),
    ]);
    expect(expressions.length).toBeGreaterThan(10);
    expect(expressions.filter((e) => e.includes('\\'))).toEqual([]);
    expect(TEXT).not.toMatch(/^\s*timeout:/m);
  });

  it('triggers name items of their own template, and every macro used is defined there', () => {
    for (const t of templates) {
      const keys = new Set<string>();
      const triggers: Trigger[] = [];
      for (const i of t.items ?? []) {
        keys.add(i.key);
        triggers.push(...(i.triggers ?? []));
      }
      for (const r of t.discovery_rules ?? []) {
        for (const i of r.item_prototypes ?? []) {
          keys.add(i.key);
          triggers.push(...(i.trigger_prototypes ?? []));
        }
      }
      for (const tr of triggers) {
        for (const m of tr.expression.matchAll(/\/([^/]+)\/([^)]+?)(?:,[^)]*)?\)/g)) {
          expect(m[1], tr.name).toBe(t.template);
          expect(keys.has(m[2]), `${t.template}: ${tr.name} uses ${m[2]}`).toBe(true);
        }
      }
      const defined = new Set((t.macros ?? []).map((m) => m.macro));
      const used = new Set(JSON.stringify(t).match(/\{\$[A-Z0-9_.]+\}/g) ?? []);
      for (const m of used) expect(defined.has(m), `${t.template} uses ${m}`).toBe(true);
    }
  });
});

describe('the ini example and docs/zabbix.md give the VM checks a session cache', () => {
  /** The sections of an ini text (comments dropped) as key sets. */
  function sections(text: string): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    let current: Set<string> | undefined;
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      const head = /^\[([^\]]+)\]$/.exec(line);
      if (head) out.set(head[1], (current = new Set()));
      else if (current && line && !line.startsWith('#') && !line.startsWith(';')) current.add(line.split('=')[0].trim());
    }
    return out;
  }
  const example = readFileSync(join(REPO, 'contrib/zabbix/cloudchecks.ini.example'), 'utf8');
  const docsIni = /```ini\n([\s\S]*?)```/.exec(readFileSync(join(REPO, 'docs/zabbix.md'), 'utf8'))![1];

  it.each([
    ['contrib/zabbix/cloudchecks.ini.example', example],
    ['docs/zabbix.md', docsIni],
  ])('%s: every Cloud Director section sets cache-dir (the zabbix user has no usable home on Debian)', (_name, text) => {
    const vcd = [...sections(text)].filter(([, keys]) => keys.has('password-file') || keys.has('api-token-file'));
    expect(vcd.length).toBeGreaterThan(0);
    for (const [name, keys] of vcd) expect(keys.has('cache-dir'), `[${name}]`).toBe(true);
  });
});
