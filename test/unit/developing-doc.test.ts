// docs/DEVELOPING.md's walk-throughs are true: every repository path it names exists, every
// function, type or constant it names in the prose is defined in the sources, every code block
// headed by a path is a passage of that file as it is, and a new cluster plugin made by the
// "Adding a cluster check" steps (its main.ts the doc's own block) builds and runs. When code
// moves or an API is renamed, this fails until the doc says the new truth.
import { build } from 'esbuild';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module of the build, without types
import { BUNDLE_OPTIONS } from '../../scripts/bundle-options.mjs';

const REPO = resolve(__dirname, '../..');
const DOC = readFileSync(join(REPO, 'docs/DEVELOPING.md'), 'utf8');

/** The doc's fenced code blocks: their language, their lines without the fence's indentation, where they start. */
function codeBlocks(text: string): { lang: string; lines: string[]; line: number }[] {
  const blocks: { lang: string; lines: string[]; line: number }[] = [];
  const all = text.split('\n');
  for (let i = 0; i < all.length; i++) {
    const open = /^(\s*)```(\w*)\s*$/.exec(all[i]);
    if (!open) continue;
    const indent = open[1].length;
    const lines: string[] = [];
    let j = i + 1;
    for (; j < all.length && !/^\s*```\s*$/.test(all[j]); j++) lines.push(all[j].slice(Math.min(indent, all[j].length - all[j].trimStart().length)));
    blocks.push({ lang: open[2], lines, line: i + 1 });
    i = j;
  }
  return blocks;
}

/** The doc without its code blocks: the prose, whose `quoted` words are checked one by one. */
const PROSE = DOC.replace(/^\s*```[\s\S]*?^\s*```\s*$/gm, '');
const QUOTED = [...PROSE.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);

/** Source files of the repository (lib, plugins, sim, scripts, the tests' support). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sources(path);
    return /\.(ts|mjs)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}
const SOURCE = ['lib', 'plugins', 'sim', 'scripts', 'test/support', 'test/integration/support']
  .flatMap((d) => sources(join(REPO, d)))
  .map((f) => readFileSync(f, 'utf8'))
  .join('\n');

/** Defined in the sources: a function, class, type, constant, or a method or property that is called. */
function defined(name: string): boolean {
  const n = name.replace(/\$/g, '\\$');
  return new RegExp(
    `(function\\*?\\s+${n}\\b|\\b(const|let|class|interface|type|enum)\\s+${n}\\b|^\\s*(export\\s+)?(async\\s+)?(static\\s+)?(get\\s+)?${n}\\s*[(<]|\\b${n}\\s*[:=]\\s*(async\\s*)?(\\(|function)|\\b${n}\\??\\s*\\()`,
    'm',
  ).test(SOURCE);
}

describe('docs/DEVELOPING.md', () => {
  it('names only repository paths that exist (a path still to be made carries a <placeholder>)', () => {
    const paths = QUOTED.flatMap((q) => q.split(/[\s,()]+/))
      .map((w) => w.replace(/[.:;]+$/, ''))
      .filter((w) => /^(lib|plugins|test|sim|scripts|docs|contrib|packaging|dist|bench)\//.test(w) && !w.includes('<'));
    expect(paths.length).toBeGreaterThan(30);
    expect(paths.filter((p) => !existsSync(join(REPO, p.replace(/#.*$/, ''))))).toEqual([]);
  });

  it('names only functions, types and constants the sources define', () => {
    const names = new Set<string>();
    for (const q of QUOTED) {
      if (/^-|^\.|\//.test(q)) continue; // options, file names, paths
      for (const m of q.matchAll(/([A-Za-z_$][\w$]*)\s*\(/g)) names.add(m[1]);
      const lead = /^([A-Za-z_$][\w$]*)(?=$|[.<(])/.exec(q)?.[1];
      // A type or a constant (Result, ScalarContext, PAGE_LIMIT), or a camelCase name (worstOf).
      if (lead && (/^[A-Z][a-z]+[A-Z]|^[A-Z][a-z]+$|^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(lead) || /^[a-z]+[A-Z]/.test(lead))) names.add(lead);
    }
    expect(names.size).toBeGreaterThan(40);
    expect([...names].filter((n) => !defined(n))).toEqual([]);
  });

  it('quotes code as it is: each block headed by a path is a passage of that file', () => {
    const quoted = codeBlocks(DOC).filter((b) => b.lang === 'ts' && /^\/\/ [\w./-]+\.ts$/.test(b.lines[0] ?? ''));
    expect(quoted.length).toBeGreaterThanOrEqual(5);
    for (const block of quoted) {
      const path = block.lines[0].slice(3);
      const body = block.lines.slice(1).join('\n').trimEnd();
      expect(readFileSync(join(REPO, path), 'utf8'), `DEVELOPING.md line ${block.line}: ${path}`).toContain(body);
    }
  });
});

describe('"Adding a cluster check", followed', () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-walkthrough-'));
  let server: Server | undefined;
  afterAll(() => {
    server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** The doc's block for a file, by the path that heads it. */
  const block = (path: string) => {
    const found = codeBlocks(DOC).find((b) => b.lines[0] === `// ${path}`);
    if (!found) throw new Error(`DEVELOPING.md has no block for ${path}`);
    return found.lines.slice(1).join('\n').trimEnd() + '\n';
  };

  it('a new plugin, its main.ts the one the doc gives, builds and runs in the cluster family', async () => {
    // A tree beside the repository's: its lib/ and the family's skeleton as they are, and the new plugin's folder.
    symlinkSync(join(REPO, 'lib'), join(root, 'lib'));
    mkdirSync(join(root, 'plugins/check_walkthrough'), { recursive: true });
    symlinkSync(join(REPO, 'plugins/cluster-family.ts'), join(root, 'plugins/cluster-family.ts'));
    const folder = join(root, 'plugins/check_walkthrough');
    writeFileSync(
      join(folder, 'options.ts'),
      `import { CLUSTER_OPTIONS } from '../../lib/cluster/target';
import { HTTP_OPTIONS } from '../../lib/http/options';
import { defineOptions, type PluginOptions } from '../../lib/plugin/options';

export const WALKTHROUGH_OPTIONS = defineOptions([...CLUSTER_OPTIONS, ...HTTP_OPTIONS]);
export type WalkthroughOptions = PluginOptions<typeof WALKTHROUGH_OPTIONS>;
`,
    );
    writeFileSync(
      join(folder, 'config.ts'),
      `import type { ClusterTarget, GetOptions } from '../../lib/cluster/client';
import { clusterTargetFrom } from '../../lib/cluster/target';
import { maxBytesFrom } from '../../lib/http/options';
import type { RunContext } from '../../lib/plugin/context';
import type { WalkthroughOptions } from './options';

export interface WalkthroughConfig {
  target: ClusterTarget;
  get: GetOptions;
}

export async function configureWalkthrough(options: WalkthroughOptions, context: RunContext): Promise<WalkthroughConfig> {
  return { target: await clusterTargetFrom(options, context, context.notes), get: { maxBytes: maxBytesFrom(options), signal: context.signal } };
}
`,
    );
    writeFileSync(
      join(folder, 'plugin.ts'),
      `import { readServerVersion } from '../../lib/cluster/kube-version';
import { State } from '../../lib/plugin/state';
import { clusterCheck } from '../cluster-family';
import { configureWalkthrough } from './config';
import { WALKTHROUGH_OPTIONS } from './options';

export const plugin = clusterCheck({
  name: 'WALKTHROUGH',
  command: 'check_walkthrough',
  description: 'Says which version the API server runs.',
  usage: '[options]',
  options: WALKTHROUGH_OPTIONS,
  examples: ['check_walkthrough --url https://api.cluster.example.com:6443 --token-file /etc/nagios/cluster.token'],
  configure: configureWalkthrough,
  reading: 'reading /version',
  read: (target, config) => readServerVersion(target, config.get),
  judge: (version) => (version ? { state: State.OK, summary: \`API server \${version.text}\` } : { state: State.UNKNOWN, summary: 'no version' }),
});
`,
    );
    writeFileSync(join(folder, 'main.ts'), block('plugins/check_cluster_certs/main.ts'));
    const out = join(root, 'dist/check_walkthrough');
    await build({ ...BUNDLE_OPTIONS, entryPoints: [join(folder, 'main.ts')], outfile: out, define: { __CLOUDCHECKS_VERSION__: '"0.0.0"' } });

    const help = spawnSync(process.execPath, [out, '--help'], { encoding: 'utf8' });
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      'Usage: check_walkthrough (--url URL | -H HOST [-p PORT] | --kubeconfig [PATH]) [--token-file PATH] [options]',
    );
    expect(help.stdout).toMatch(/KUBE_TOKEN/);

    // One read of a cluster (a plain-HTTP one on 127.0.0.1, allowed with --allow-http), then the judge.
    server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(req.url === '/version' ? JSON.stringify({ major: '1', minor: '27', gitVersion: 'v1.27.10+28ed2d7' }) : '{}');
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const token = join(root, 'cluster.token');
    writeFileSync(token, 'walkthrough-token\n', { mode: 0o600 });
    const run = await new Promise<{ code: number | null; stdout: string }>((done) => {
      // Spawned, not run synchronously: the server answers in this process.
      const p = spawn(process.execPath, [out, '--url', url, '--allow-http', '--token-file', token], { env: { PATH: process.env.PATH } });
      let stdout = '';
      p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      p.on('close', (code) => done({ code, stdout }));
    });
    expect(run.stdout).toBe('WALKTHROUGH OK - API server v1.27.10+28ed2d7\n');
    expect(run.code).toBe(0);
  });
});
