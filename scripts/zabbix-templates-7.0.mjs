#!/usr/bin/env node
// contrib/zabbix/cloudchecks_templates_7.0.yaml is made from cloudchecks_templates.yaml (the
// source, export format 6.0) by this script, so that every edit reaches both: edit the 6.0
// file, then run `node scripts/zabbix-templates-7.0.mjs` (test/unit/zabbix-template.test.ts
// fails while the two differ; `--check` says so too). What 7.0 adds, and 6.0 cannot say:
// - export format 7.0 (template groups are `template_groups`; no date);
// - every external check carries its own timeout (7.0 takes a timeout per item, up to 10
//   minutes; without one it takes the global "External check" timeout, 3 s by default):
//   {$CLOUDCHECKS.TIMEOUT} for the single checks and discoveries, {$CLOUDCHECKS.FLEET.TIMEOUT}
//   for check_vm_fleet's master item, sized in docs/scaling.md;
// - those macros, with their values below, in the templates that have external checks;
// - the dashboards in 7.0's widget format, from scripts/zabbix-graphs.mjs (7.0 names the widget
//   modules, on a grid three times as wide).
// - "Check for not supported value" says which errors it takes (7.0: -1, any error; 6.0 has no
//   such parameter).
// The rest is the source's text, line for line.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dashboardLines } from './zabbix-graphs.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SOURCE = join(REPO, 'contrib/zabbix/cloudchecks_templates.yaml');
export const TARGET = join(REPO, 'contrib/zabbix/cloudchecks_templates_7.0.yaml');

/** The 7.0-only macros: value and description. */
export const MACROS_70 = {
  '{$CLOUDCHECKS.TIMEOUT}': {
    value: '30s',
    description:
      "Zabbix 7.0: how long the server lets each external check of this template run (up to 10m). Longer than the plugins' own timeout (timeout= in the ini section), so that a check's own UNKNOWN saying why arrives first.",
  },
  '{$CLOUDCHECKS.FLEET.TIMEOUT}': {
    value: '5m',
    description:
      "Zabbix 7.0: how long the server lets check_vm_fleet run for this host (up to 10m, and less than {$CLOUDCHECKS.FLEET.INTERVAL}). Set the ini section's timeout= a little below it: docs/scaling.md sizes both by the number of VMs.",
  },
};

const quote = (s) => `'${s.replace(/'/g, "''")}'`;

/** The 7.0 export of the 6.0 source text; throws when the source no longer has what it rewrites. */
export function toZabbix70(source) {
  const lines = source.split('\n');
  const out = [];
  let template = '';
  let external = false; // inside an EXTERNAL item or discovery rule, before its delay line
  const templateHasExternal = new Set();
  // First pass: which templates have external checks (they get the timeout macros).
  for (const line of lines) {
    const t = /^ {6}template: (.+)$/.exec(line);
    if (t) template = t[1];
    if (/^ +type: EXTERNAL$/.test(line)) templateHasExternal.add(template);
  }
  template = '';
  const wanted = (t) => (!templateHasExternal.has(t) ? [] : t.endsWith('VM fleet') ? ['{$CLOUDCHECKS.FLEET.TIMEOUT}'] : ['{$CLOUDCHECKS.TIMEOUT}']);
  const rewrote = { version: 0, date: 0, groups: 0, timeouts: 0, macros: 0, dashboards: 0 };
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    if (i < 8 && /^# .*Export format 6\.0/.test(line)) {
      // The header says what this file is (the source's two lines on the format become three).
      out.push(
        '# Zabbix templates for the cloudchecks plugins as external checks. Export format 7.0, for',
        '# Zabbix 7.0 LTS: made from cloudchecks_templates.yaml (format 6.0, for 6.0 LTS) by',
        '# scripts/zabbix-templates-7.0.mjs; edit that file, not this one. Set-up, the ini file and the',
      );
      i += 1;
      continue;
    }
    if (line === "  version: '6.0'") {
      line = "  version: '7.0'";
      rewrote.version++;
    }
    if (/^ {2}date: /.test(line)) {
      rewrote.date++;
      continue; // 7.0 exports carry no date
    }
    if (line === '  groups:') {
      line = '  template_groups:';
      rewrote.groups++;
    }
    const t = /^ {6}template: (.+)$/.exec(line);
    if (t) template = t[1];
    if (/^ +type: EXTERNAL$/.test(line)) external = true;
    if (line === '      dashboards:') {
      while (i + 1 < lines.length && /^ {8}/.test(lines[i + 1])) i++;
      out.push(...dashboardLines(template, '7.0'));
      rewrote.dashboards++;
      continue;
    }
    if (line === '      macros:') {
      // The template's macros, with the 7.0 ones, sorted by name as Zabbix exports them.
      const blocks = [];
      while (i + 1 < lines.length && /^ {8}/.test(lines[i + 1])) {
        if (/^ {8}- macro: /.test(lines[i + 1])) blocks.push([]);
        blocks[blocks.length - 1].push(lines[++i]);
      }
      for (const name of wanted(template)) blocks.push(macroLines(name));
      const nameOf = (b) => /'(.+)'/.exec(b[0])[1];
      blocks.sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0));
      out.push(line, ...blocks.flat());
      continue;
    }
    if (/^ +- type: CHECK_NOT_SUPPORTED$/.test(line) && /^ +parameters:$/.test(lines[i + 1] ?? '') && /^ +- ''$/.test(lines[i + 2] ?? '')) {
      out.push(line, lines[i + 1], lines[i + 2].replace("''", "'-1'"));
      i += 2;
      continue;
    }
    out.push(line);
    const delay = /^( +)delay: /.exec(line);
    if (external && delay) {
      const fleet = /check_vm_fleet\[/.test(lines[i - 1] ?? '');
      out.push(`${delay[1]}timeout: '${fleet ? '{$CLOUDCHECKS.FLEET.TIMEOUT}' : '{$CLOUDCHECKS.TIMEOUT}'}'`);
      external = false;
      rewrote.timeouts++;
    }
  }
  function macroLines(name) {
    rewrote.macros++;
    const { value, description } = MACROS_70[name];
    return [`        - macro: '${name}'`, `          value: ${value}`, `          description: ${quote(description)}`];
  }
  if (rewrote.version !== 1 || rewrote.groups !== 1 || rewrote.timeouts === 0 || rewrote.macros === 0)
    throw new Error(`cloudchecks_templates.yaml no longer has what this script rewrites: ${JSON.stringify(rewrote)}`);
  return out.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const made = toZabbix70(readFileSync(SOURCE, 'utf8'));
  if (process.argv[2] === '--check') {
    let current = '';
    try {
      current = readFileSync(TARGET, 'utf8');
    } catch {
      // missing: out of date
    }
    if (current !== made) {
      console.error('contrib/zabbix/cloudchecks_templates_7.0.yaml is out of date: run node scripts/zabbix-templates-7.0.mjs');
      process.exit(1);
    }
    console.log('contrib/zabbix/cloudchecks_templates_7.0.yaml matches cloudchecks_templates.yaml');
  } else {
    writeFileSync(TARGET, made);
    console.log('wrote contrib/zabbix/cloudchecks_templates_7.0.yaml');
  }
}
