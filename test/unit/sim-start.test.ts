// The simulator's start failures: one line naming the path or port and the fix, no stack.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFailureLine, startSimulatorFromArgs } from '../../sim/simulator';
import { SIM_MODULES } from '../../sim/modules';

describe('startFailureLine', () => {
  it('another user: permission denied on a path is one line with the fix', () => {
    const e = Object.assign(new Error("EACCES: permission denied, open '/root/cloudchecks/x'"), {
      code: 'EACCES',
      syscall: 'open',
      path: '/root/cloudchecks/x',
    });
    expect(startFailureLine(e)).toBe(
      'cloudchecks-sim: cannot open /root/cloudchecks/x: permission denied (EACCES); run it as a user who may read the checkout (or use the installed cloudchecks-sim), with --state-dir in a directory that user may write',
    );
  });

  it('a state directory that cannot be made, from a real start', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cc-sim-')), 'a-file');
    writeFileSync(file, '');
    const error = await startSimulatorFromArgs(['--state-dir', join(file, 'state')], SIM_MODULES).then(
      () => undefined,
      (e: unknown) => e,
    );
    const line = startFailureLine(error);
    expect(line).toMatch(/^cloudchecks-sim: cannot mkdir .*a-file\/state \(ENOTDIR\); give --state-dir a directory this user may create and write$/);
    expect(line).not.toContain('\n');
  });

  it('a port in use names it', () => {
    const e = Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE', syscall: 'listen', address: '127.0.0.1', port: 6443 });
    expect(startFailureLine(e)).toBe(
      'cloudchecks-sim: cannot listen 127.0.0.1:6443: the port is in use (EADDRINUSE); choose another port, or 0 for any free one',
    );
  });
});
