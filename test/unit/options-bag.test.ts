// lib takes typed configs, never the options bag: each option group is parsed once, by its own
// parser (named below, called at the plugin's edge), into a type; no other function of lib/
// takes an options object or reads an option by its name. lib/plugin, the runtime that turns
// argv into options, is the one exception.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');

/** The groups' parsers, by file: the only functions of lib/ (lib/plugin aside) that read options. */
const PARSERS: Record<string, readonly string[]> = {
  'lib/http/options.ts': ['requireTlsUnlessAllowed', 'tlsSettingsFrom', 'maxBytesFrom'],
  'lib/submit/options.ts': ['submitConfigFrom', 'icingaTargetFrom'],
  'lib/cluster/target.ts': ['clusterTargetFrom', 'checkOptionPairs', 'draftFromOptions'],
  'lib/vcd/api/connection-options.ts': ['forcedVersionFrom'],
  'lib/vcd/api/credentials.ts': ['credentialsFrom'],
  'lib/vcd/frame/vcd-frame.ts': ['cacheUnusableStateFrom', 'vcdFrameConfigFrom'],
  'lib/vcd/frame/last-state.ts': ['lastStateFrom'],
  'lib/vcd/frame/session-options.ts': ['sessionConfigFrom', 'connectionUnder'],
  'lib/vcd/inventory/inventory-options.ts': [
    'maxVmsFrom',
    'resolveTtlFrom',
    'selectionFrom',
    'inventoryOutputFrom',
    'discoveryFilesFrom',
    'discoveryConfigFrom',
  ],
  'lib/vcd/hygiene/hygiene-options.ts': ['configureSnapshots', 'configureTools', 'configureLeases'],
  'lib/vcd/hygiene/hygiene-check.ts': ['hygieneCheckRunFrom', 'hygieneCheckPlugin'],
  'lib/vcd/vm/vm-check.ts': ['vmCheckPlugin'],
  'lib/vcd/vdc/capacity-check.ts': ['capacityThresholdsFrom', 'capacityDiscoveryFrom'],
  'lib/vcd/vm/vm-access.ts': ['vmAccessFrom'],
  'lib/vcd/vm/vm-config.ts': ['thresholdsOf', 'windowOf', 'configureVmCheck', 'vmCheckRunFrom'],
  'lib/join/node-vm/node-vm-config.ts': ['nodeVmConfigFrom'],
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const parse = (file: string, text: string) => ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
const KEBAB = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$/;

/** Every option's long name declared in lib/ and plugins/ with a dash in it (`max-vms`, `ca-file`). */
function kebabOptionNames(texts: readonly string[]): Set<string> {
  return new Set(texts.flatMap((t) => [...t.matchAll(/\blong:\s*'([a-z0-9-]+)'/g)].map((m) => m[1]).filter((n) => KEBAB.test(n))));
}

/** The names of the types that are (or contain) parsed options: OptionsOf/PluginOptions, a quoted option name as a key, or one of those types. */
function bagTypeNames(files: readonly ts.SourceFile[], options: ReadonlySet<string>): Set<string> {
  const declared = new Map<string, string>();
  for (const sf of files)
    for (const st of sf.statements)
      if (ts.isTypeAliasDeclaration(st) || ts.isInterfaceDeclaration(st)) declared.set(st.name.text, st.getText(sf).replace(/^[^=({]*[=({]/, ''));
  const bags = new Set(['OptionsOf', 'PluginOptions']);
  for (let grew = true; grew;) {
    grew = false;
    for (const [name, text] of declared)
      if (!bags.has(name) && mentionsBag(text, bags, options)) {
        bags.add(name);
        grew = true;
      }
  }
  return bags;
}

function mentionsBag(typeText: string, bags: ReadonlySet<string>, options: ReadonlySet<string>): boolean {
  if ([...typeText.matchAll(/'([a-z0-9-]+)'\??\s*:/g)].some((m) => options.has(m[1]))) return true;
  return [...typeText.matchAll(/\b[A-Z]\w*/g)].some((m) => bags.has(m[0]));
}

/** The name of the module-level function (declaration, or const = arrow/function) `node` is inside of. */
function outerFunction(node: ts.Node): string | undefined {
  let name: string | undefined;
  for (let n: ts.Node | undefined = node; n; n = n.parent) {
    if (ts.isFunctionDeclaration(n) && n.name) name = n.name.text;
    else if (ts.isMethodDeclaration(n) && ts.isIdentifier(n.name)) name = n.name.text;
    else if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && ts.isFunctionLike(n.initializer)) name = n.name.text;
  }
  return name;
}

/** Where a source reads the bag: `options['max-vms']`, `o[`${what}-warning`]`, or a parameter typed as options. */
function bagReads(sf: ts.SourceFile, options: ReadonlySet<string>, bags: ReadonlySet<string>): { fn: string | undefined; line: number; what: string }[] {
  const found: { fn: string | undefined; line: number; what: string }[] = [];
  const at = (n: ts.Node, what: string) => found.push({ fn: outerFunction(n), line: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1, what });
  const suffixes = [...options].map((o) => o.slice(o.indexOf('-')));
  const visit = (node: ts.Node): void => {
    if (ts.isElementAccessExpression(node)) {
      const key = node.argumentExpression;
      if ((ts.isStringLiteral(key) || ts.isNoSubstitutionTemplateLiteral(key)) && options.has(key.text)) at(node, node.getText(sf));
      if (ts.isTemplateExpression(key) && suffixes.some((s) => key.templateSpans.at(-1)!.literal.text.endsWith(s))) at(node, node.getText(sf));
    }
    if (ts.isParameter(node) && node.type && mentionsBag(node.type.getText(sf), bags, options)) at(node, `parameter ${node.getText(sf)}`);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

const texts = new Map([...sources(join(ROOT, 'lib')), ...sources(join(ROOT, 'plugins'))].map((f) => [relative(ROOT, f), readFileSync(f, 'utf8')]));
const OPTIONS = kebabOptionNames([...texts.values()]);
const BAGS = bagTypeNames(
  [...texts].map(([f, t]) => parse(f, t)),
  OPTIONS,
);
const LIB = [...texts.keys()].filter((f) => f.startsWith('lib/') && !f.startsWith('lib/plugin/'));

describe('the options bag stops at the edge', () => {
  it('the scan sees a bag read, a bag parameter and a computed option name', () => {
    const sample = parse(
      'sample.ts',
      "function judge(o: { 'max-vms': number }) { return o['max-vms']; }\nconst f = (x: FleetOptions, w: string) => x[`${w}-warning`];\n",
    );
    const reads = bagReads(sample, new Set(['max-vms', 'cpu-warning']), new Set(['FleetOptions']));
    expect(reads.map((r) => [r.fn, r.line])).toEqual([
      ['judge', 1],
      ['judge', 1],
      ['f', 2],
      ['f', 2],
    ]);
  });

  it('no function of lib/ but the groups’ parsers takes options or reads one by its name', () => {
    expect(OPTIONS.size).toBeGreaterThan(40);
    const outside = LIB.flatMap((file) =>
      bagReads(parse(file, texts.get(file)!), OPTIONS, BAGS)
        .filter((r) => !(r.fn !== undefined && PARSERS[file]?.includes(r.fn)))
        .map((r) => `${file}:${r.line} ${r.fn ?? '(module)'}: ${r.what}`),
    );
    expect(outside).toEqual([]);
  });

  it('each parser named above exists and reads options (the list stays true)', () => {
    const stale = Object.entries(PARSERS).flatMap(([file, names]) => {
      const text = texts.get(file);
      if (text === undefined) return names.map((n) => `${file} (no such file): ${n}`);
      const readers = new Set(bagReads(parse(file, text), OPTIONS, BAGS).map((r) => r.fn));
      return names.filter((n) => !readers.has(n)).map((n) => `${file}: ${n}`);
    });
    expect(stale).toEqual([]);
  });
});
