// Results come from lib/plugin, not by hand: reports hand over parts (lib/plugin/part.ts) and
// measure values in one call (lib/plugin/scalar-context.ts, time-left.ts). Outside lib/plugin
// no code ranks or reduces states itself, declares its own "state and words" type, writes a
// perfdata item as a literal, or measures a value only to keep its state (its perfdata lost).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every source file of lib/ and plugins/ but the runtime's own (lib/plugin). */
const FILES = [...sources(join(ROOT, 'lib')), ...sources(join(ROOT, 'plugins'))]
  .map((path) => relative(ROOT, path))
  .filter((path) => !path.startsWith('lib/plugin/'))
  .map((path) => ts.createSourceFile(path, readFileSync(join(ROOT, path), 'utf8'), ts.ScriptTarget.Latest, true));

/** Every node of the files for which `found` says what is wrong, as `file:line: what`. */
function findings(found: (node: ts.Node, sf: ts.SourceFile) => string | undefined): string[] {
  const out: string[] = [];
  for (const sf of FILES) {
    const visit = (node: ts.Node): void => {
      const what = found(node, sf);
      if (what !== undefined) out.push(`${sf.fileName}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}: ${what}`);
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

const nameOf = (n: ts.Node | undefined): string | undefined =>
  n === undefined ? undefined : ts.isIdentifier(n) ? n.text : ts.isPropertyAccessExpression(n) ? n.name.text : undefined;

/** The members a type declares itself (`state: State`), by name, with their types' text. */
function ownMembers(members: ts.NodeArray<ts.TypeElement>, sf: ts.SourceFile): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of members) if (ts.isPropertySignature(m) && m.name && ts.isIdentifier(m.name)) out.set(m.name.text, m.type?.getText(sf) ?? '');
  return out;
}

/** What a perfdata item has besides its label and value. */
const PERFDATA_SHAPE = ['uom', 'min', 'max', 'warning', 'critical'];

/** lib/plugin/subcheck.ts's reducers and orders: a report hands parts to lib/plugin/part.ts (resultOf, withParts, Verdict, itemOf), which calls them. */
const REDUCERS = ['worstOf', 'stateOf', 'problemsOf', 'healthyOf', 'worstFirst', 'problemsFirst'];

/** Words a type may give a state in: a Part-like type has a state and one of these. */
const WORDS = ['text', 'said', 'phrase'];

describe('results come from the seam in lib/plugin', () => {
  it('no report outside lib/plugin reduces or orders states through lib/plugin/subcheck.ts to word its own line: it hands parts to resultOf', () => {
    const imports = findings((node) => {
      if (!ts.isImportDeclaration(node) || !ts.isStringLiteral(node.moduleSpecifier)) return undefined;
      if (!/(^|\/)plugin\/subcheck$/.test(node.moduleSpecifier.text)) return undefined;
      const bindings = node.importClause?.namedBindings;
      if (bindings !== undefined && ts.isNamespaceImport(bindings)) return 'imports lib/plugin/subcheck whole: hand parts to lib/plugin/part.ts';
      const named = bindings === undefined ? [] : bindings.elements.map((e) => (e.propertyName ?? e.name).text).filter((n) => REDUCERS.includes(n));
      return named.length === 0
        ? undefined
        : `${named.join(', ')} from lib/plugin/subcheck: hand parts to lib/plugin/part.ts (resultOf, withParts, Verdict, itemOf)`;
    });
    expect(imports).toEqual([]);
  });

  it('no code outside lib/plugin ranks, sorts or reduces states itself (worstState, severity, a sort by state)', () => {
    const calls = findings((node) => {
      if (!ts.isCallExpression(node)) return undefined;
      const callee = nameOf(node.expression);
      if (callee === 'worstState' || callee === 'severity') return `${callee}(…): hand the states to lib/plugin (worstOf, Verdict, resultOf)`;
      const order = node.arguments[0];
      if (callee === 'sort' && order !== undefined && /\.state\b/.test(order.getText())) return 'sorted by state: worstFirst or problemsFirst';
      return undefined;
    });
    expect(calls).toEqual([]);
  });

  it('no type outside lib/plugin pairs a state with its words: that is lib/plugin/part.ts Part (extend it)', () => {
    const types = findings((node, sf) => {
      const members = ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node) ? ownMembers(node.members, sf) : undefined;
      if (members === undefined || members.get('state') !== 'State') return undefined;
      const words = WORDS.find((w) => members.get(w) === 'string');
      return words === undefined ? undefined : `a type of its own with state and ${words}: use or extend Part`;
    });
    expect(types).toEqual([]);
  });

  it('no perfdata item is written as a literal or changed after it was measured', () => {
    const literals = findings((node) => {
      if (ts.isObjectLiteralExpression(node)) {
        // A perfdata item has a label, a value and a shape; a value to choose among (`key`) or a projection of one (label and value) is not one.
        const names = node.properties.map((p) => nameOf(p.name));
        const shaped = PERFDATA_SHAPE.some((n) => names.includes(n));
        if (names.includes('label') && names.includes('value') && shaped && !names.includes('key'))
          return 'a perfdata literal: measure it (ScalarContext.measure, unjudgedMetric)';
      }
      if (ts.isSpreadAssignment(node) && nameOf(node.expression) === 'metric') return 'a measured metric changed: measure the value graphed';
      return undefined;
    });
    expect(literals).toEqual([]);
  });

  it('no value is measured only for its state: what is judged is graphed from the same call (measureEach for lists)', () => {
    const split = findings((node) => {
      if (!ts.isPropertyAccessExpression(node) || node.name.text !== 'state' || !ts.isCallExpression(node.expression)) return undefined;
      return nameOf(node.expression.expression) === 'measure' ? '.measure(…).state: its perfdata is lost; graph what is judged' : undefined;
    });
    expect(split).toEqual([]);
  });

  it('reads every report', () => {
    const names = FILES.map((sf) => sf.fileName);
    for (const report of [
      'lib/cluster/monitoring-report.ts',
      'lib/cluster/operators-report.ts',
      'lib/cluster/apiserver-report.ts',
      'lib/cluster/certs-report.ts',
      'lib/vcd/pvdc/pvdc-report.ts',
      'lib/vcd/backends/backend-report.ts',
      'plugins/check_vm_fleet/summary.ts',
    ])
      expect(names).toContain(report);
  });
});
