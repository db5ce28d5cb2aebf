// lib/vcd's folders stand in floors: a folder imports only folders of lower floors, so that the
// API access at the bottom knows no check, and what every check shares (the VM listing, the
// read frame, the per-VM seam) sits below the checks that share it. The fleet is the top
// floor: nothing but the fleet and its plugin imports it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const VCD = join(ROOT, 'lib/vcd');

/** The floors from the ground up; folders on one floor do not import each other. */
const FLOORS: readonly (readonly string[])[] = [
  ['api'], // connection, login, sessions, queries, ids: imports no other folder
  ['inventory'], // VM query records, listing, names, --discovery and its options
  ['frame'], // the session's options and the read frame every vCD check opens
  ['vm'], // the per-VM seam and the VM metric checks
  ['hygiene', 'vdc', 'tasks', 'edges', 'service'],
  ['pvdc'],
  ['backends'],
  ['fleet'],
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each relative import of a file (type-only and re-exports too), as an absolute path without extension. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|(^|[^:'"`])\/\/[^\n]*/g, '$1');
  const found = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.[^'"]+)['"]/g)].map((m) => resolve(dirname(file), m[1]));
  return [...new Set(found)];
}

/** The lib/vcd folder a path is in, or undefined outside lib/vcd (a file directly in lib/vcd is its own "folder"). */
function folderOf(path: string): string | undefined {
  const rel = relative(VCD, path);
  if (rel.startsWith('..')) return undefined;
  return rel.split(sep)[0];
}

const floorOf = (folder: string) => FLOORS.findIndex((floor) => floor.includes(folder));

describe('lib/vcd floors', () => {
  const files = sources(VCD);

  it('every folder of lib/vcd stands on a floor, and no file lies loose beside them', () => {
    const folders = new Set(files.map((f) => folderOf(f)!));
    expect([...folders].filter((f) => floorOf(f) < 0)).toEqual([]);
  });

  it('a folder imports only folders of lower floors', () => {
    const upward = files.flatMap((file) => {
      const from = folderOf(file)!;
      return importsOf(file).flatMap((target) => {
        const to = folderOf(target);
        if (to === undefined || to === from || floorOf(to) < floorOf(from)) return [];
        return [`${relative(ROOT, file)} -> ${relative(ROOT, target)}`];
      });
    });
    expect(upward).toEqual([]);
  });

  it('api/ imports no other folder of lib/vcd', () => {
    const out = files
      .filter((f) => folderOf(f) === 'api')
      .flatMap((file) =>
        importsOf(file)
          .filter((t) => folderOf(t) !== undefined && folderOf(t) !== 'api')
          .map((t) => `${relative(ROOT, file)} -> ${relative(ROOT, t)}`),
      );
    expect(out).toEqual([]);
  });

  it('nothing imports fleet/ but the fleet and check_vm_fleet', () => {
    const everything = ['lib', 'plugins', 'sim'].flatMap((d) => sources(join(ROOT, d)));
    const fleetUsers = everything.filter(
      (file) =>
        folderOf(file) !== 'fleet' &&
        !relative(ROOT, file).startsWith(`plugins${sep}check_vm_fleet${sep}`) &&
        importsOf(file).some((t) => folderOf(t) === 'fleet'),
    );
    expect(fleetUsers.map((f) => relative(ROOT, f))).toEqual([]);
  });
});
