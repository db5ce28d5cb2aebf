// PROCESS_SERVICE_CHECK_RESULT lines into a real named pipe (mkfifo): what a reader gets, a
// pipe nobody reads (ENXIO, never a hang), a pipe that stays full, and the paths refused
// because another local user could read or replace what is written.
import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, constants, createReadStream, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { State } from '../../../lib/plugin/state';
import { serviceResultCommand, submitToNagios } from '../../../lib/submit/nagios';
import type { PassiveResult } from '../../../lib/submit/passive-result';

let dir: string;
let fifo: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cc-nagios-cmd-'));
  chmodSync(dir, 0o750);
  fifo = join(dir, 'nagios.cmd');
  execFileSync('mkfifo', ['-m', '0660', fifo]);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const VM = 'vm-5e1f0c1a-0b2c-4d3e-8f40-5a6b7c8d9e0f';
const result = (over: Partial<PassiveResult> = {}): PassiveResult => ({
  host: VM,
  service: 'vm-cpu',
  state: State.CRITICAL,
  output: 'VM_CPU CRITICAL - cpu usage 95% on web; db',
  perfdata: ['cpu_usage=95%;80;90;0;100', 'cpu_mhz=262;;;0'],
  longOutput: ['second line'],
  ...over,
});
const soon = () => ({ deadline: Date.now() + 2000, now: 1_700_000_000_000 });

/**
 * Everything written to the pipe until the writer closes it. A reader is there at once (a
 * non-blocking descriptor, never read), so that the writer's open cannot race the stream's.
 */
function readAll(path: string): Promise<string> {
  const present = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  return new Promise<string>((resolve, reject) => {
    let text = '';
    const stream = createReadStream(path, { encoding: 'utf8' });
    stream.on('data', (d) => (text += d));
    stream.on('end', () => resolve(text));
    stream.on('error', reject);
  }).finally(() => closeSync(present));
}

describe('serviceResultCommand', () => {
  it('writes one external command line: host, service, code, output with perfdata and escaped long output', () => {
    expect(serviceResultCommand(result(), 1_700_000_000.7)).toBe(
      `[1700000000] PROCESS_SERVICE_CHECK_RESULT;${VM};vm-cpu;2;VM_CPU CRITICAL - cpu usage 95% on web; db|cpu_usage=95%;80;90;0;100 cpu_mhz=262;;;0\\nsecond line\n`,
    );
  });

  it('keeps tenant text from breaking the line or shifting fields', () => {
    const line = serviceResultCommand(result({ output: 'VM_MEM OK - on evil\r[0] SHUTDOWN_PROGRAM\u2028x', perfdata: ['mem_usage=1%'], longOutput: [] }), 0);
    expect(line.split('\n')).toHaveLength(2);
    expect(line).toContain('on evil [0] SHUTDOWN_PROGRAM x|mem_usage=1%');
    expect(() => serviceResultCommand(result({ host: 'vm-1;vm-cpu;0;OK' }), 0)).toThrow(/cannot write host name .* holds ';'/);
    expect(() => serviceResultCommand(result({ host: 'vm-1\n[0] SHUTDOWN_PROGRAM' }), 0)).toThrow(/control character/);
  });

  it('cuts a huge output to one atomic pipe write', () => {
    const line = serviceResultCommand(result({ output: `VM_DISK OK - ${'é'.repeat(5000)}`, perfdata: [], longOutput: [] }), 0);
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(4096);
    expect(line.endsWith('\n')).toBe(true);
    expect(line).not.toContain('\uFFFD');
  });
});

describe('submitToNagios', () => {
  it('delivers every line to the reader of the pipe', async () => {
    const reading = readAll(fifo);
    const many = Array.from({ length: 200 }, (_, i) => result({ service: `svc-${i}` }));
    expect(await submitToNagios(many, fifo, soon())).toBe(200);
    const lines = (await reading).split('\n').filter(Boolean);
    expect(lines).toHaveLength(200);
    expect(lines[199]).toMatch(/^\[1700000000\] PROCESS_SERVICE_CHECK_RESULT;vm-5e1f0c1a-[^;]+;svc-199;2;VM_CPU CRITICAL/);
  });

  it('says at once that nobody reads the pipe (Nagios down) instead of blocking', async () => {
    const started = Date.now();
    await expect(submitToNagios([result()], fifo, soon())).rejects.toThrow(
      /no process reads it \(ENXIO\): Nagios is not running, or check_external_commands=0/,
    );
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('gives up at the deadline when the reader never reads, saying how far it got', async () => {
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const many = Array.from({ length: 2000 }, () => result());
      const started = Date.now();
      await expect(submitToNagios(many, fifo, { deadline: Date.now() + 300 })).rejects.toThrow(/stayed full: \d+ of 2000 results written before the timeout/);
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      closeSync(reader);
    }
  });

  it('refuses what is not a named pipe, a symlink, and a pipe others may write or swap', async () => {
    const file = join(dir, 'plain');
    writeFileSync(file, '');
    await expect(submitToNagios([result()], file, soon())).rejects.toThrow(/is not a named pipe/);
    const link = join(dir, 'link');
    symlinkSync(fifo, link);
    await expect(submitToNagios([result()], link, soon())).rejects.toThrow(/symbolic link/);
    await expect(submitToNagios([result()], join(dir, 'absent'), soon())).rejects.toThrow(/does not exist \(ENOENT\)/);

    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      chmodSync(fifo, 0o662);
      await expect(submitToNagios([result()], fifo, soon())).rejects.toThrow(/writable by every local user \(mode 0662\).*chmod o-w/);
      chmodSync(fifo, 0o660);
      chmodSync(dir, 0o1777);
      await expect(submitToNagios([result()], fifo, soon())).rejects.toThrow(/the directory .* is writable by every local user \(mode 1777\)/);
    } finally {
      closeSync(reader);
    }
  });
});
