// contrib/nagios/*.cfg, checked by the real Nagios 4 (`nagios4 -v`) with a private main
// config (support/nagios.ts) around the shipped files.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { announceSkip, findExecutable } from './support/engines';
import { verifyNagiosConfig } from './support/nagios';
import { REPO } from './support/simulator';

const nagios4 = findExecutable('nagios4');
if (!nagios4) announceSkip('nagios4', 'nagios4-core');
const suite = nagios4 ? describe : describe.skip;

suite('Nagios 4 accepts contrib/nagios', () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-nagios-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('nagios4 -v: commands.cfg and example-services.cfg, no errors and no warnings', () => {
    const { code, output } = verifyNagiosConfig(nagios4!, root, [join(REPO, 'contrib/nagios/commands.cfg'), join(REPO, 'contrib/nagios/example-services.cfg')], 30_000);
    expect(output).toMatch(/Checked 10 commands\./);
    expect(output).toMatch(/Checked 6 services\./);
    expect(output).toMatch(/Total Warnings: 0\s+Total Errors:\s+0/);
    expect(code).toBe(0);
  });
});
