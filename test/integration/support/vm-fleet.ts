import { join } from 'node:path';
import { runExecutable } from '../../support/spawn';
import { DIST } from './simulator';

/**
 * What one check_vm_fleet run says of each VM service it read, from its --output json:
 * host!service -> state (powered-off VMs OK, as the contrib runners and VM hosts have them).
 */
export async function fleetStates(vcdArgs: readonly string[], cacheDir: string, home: string): Promise<Map<string, number>> {
  const r = await runExecutable(
    join(DIST, 'check_vm_fleet'),
    [...vcdArgs, '--cache-dir', cacheDir, '--powered-off-state', 'OK', '--output', 'json', '-t', '30'],
    {
      env: { PATH: process.env.PATH, HOME: home },
    },
  );
  const doc = JSON.parse(r.stdout) as { vms: Record<string, { read: boolean; cpu: { code: number }; mem: { code: number }; disk: { code: number } }> };
  const out = new Map<string, number>();
  for (const [id, vm] of Object.entries(doc.vms)) {
    if (!vm.read) continue;
    out.set(`${id}!vm-cpu`, vm.cpu.code);
    out.set(`${id}!vm-memory`, vm.mem.code);
    out.set(`${id}!vm-disk`, vm.disk.code);
  }
  return out;
}
