// check_vm_fleet --submit as built (dist/), against the simulator: what reaches a Nagios
// command pipe and a Zabbix trapper, and the failures that must end UNKNOWN within -t with
// the cause: a pipe nobody reads, a trapper that never answers, an Icinga 2 API that is down.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { VCD_MODULE } from '../../sim/vcd/module';
import { simVcdArgs } from '../support/sim-vcd-args';
import { commandPipe } from '../support/command-pipe';
import { runExecutable } from '../support/spawn';

const PLUGIN = resolve(__dirname, '../../dist/check_vm_fleet');
const BUSY = 'vm-8a1d2b3c-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
let sim: Simulator;
const dir = mkdtempSync(join(tmpdir(), 'cc-fleet-submit-'));

beforeAll(async () => {
  if (!existsSync(PLUGIN)) throw new Error('dist/check_vm_fleet is missing: run `node build.mjs dist` first');
  sim = await startSimulatorFromArgs([], [VCD_MODULE]);
});
afterAll(() => sim?.close());

const fleet = (...more: string[]) =>
  runExecutable(PLUGIN, [...simVcdArgs(sim), '--cache-dir', join(dir, 'cache'), ...more], { env: { PATH: process.env.PATH } });

describe('check_vm_fleet --submit nagios', () => {
  it('writes three PROCESS_SERVICE_CHECK_RESULT lines per VM read and says how many', async () => {
    const { path: fifo, written } = commandPipe(join(dir, 'nagios.cmd'));
    const r = await fleet('--submit', 'nagios', '--nagios-command-file', fifo);
    const lines = await written();
    expect(r.stdout).toMatch(new RegExp(`^VM_FLEET OK - 15 VMs read .*, ${lines.length} results submitted to Nagios \\|.* submitted=${lines.length};;;0\\n`));
    expect(lines).toHaveLength(45);
    expect(lines.find((l) => l.includes(`;${BUSY};vm-cpu;`))).toMatch(
      /^\[\d+\] PROCESS_SERVICE_CHECK_RESULT;vm-8a1d[^;]+;vm-cpu;1;VM_CPU WARNING - cpu usage .*\|cpu_usage=/,
    );

    // Nobody reads the pipe now: UNKNOWN at once, the collection still said.
    const started = Date.now();
    const down = await fleet('--submit', 'nagios', '--nagios-command-file', fifo, '-t', '20');
    expect(down.code).toBe(3);
    expect(down.stdout).toMatch(
      /^VM_FLEET UNKNOWN - 15 VMs read, results not submitted: cannot write to the Nagios command file .*: no process reads it \(ENXIO\)/,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 30_000);
});

describe('check_vm_fleet --submit zabbix', () => {
  it('sends the --output json document to the trapper item, and gives up on a silent trapper within -t', async () => {
    let received: { request: string; data: Array<{ host: string; key: string; value: string; clock: number }> } | undefined;
    let silent = false;
    const server = net.createServer((socket) => {
      let buffer = Buffer.alloc(0);
      socket.on('data', (chunk) => {
        buffer = Buffer.concat([buffer, chunk]);
        if (buffer.length < 13 || buffer.length < 13 + buffer.readUInt32LE(5) || silent) return;
        received = JSON.parse(buffer.subarray(13).toString()) as typeof received;
        const body = Buffer.from(JSON.stringify({ response: 'success', info: 'processed: 1; failed: 0; total: 1; seconds spent: 0.001' }));
        const head = Buffer.alloc(13);
        head.write('ZBXD\x01', 'latin1');
        head.writeUInt32LE(body.length, 5);
        socket.end(Buffer.concat([head, body]));
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = String((server.address() as net.AddressInfo).port);
    try {
      const r = await fleet('--submit', 'zabbix', '--zabbix-port', port, '--zabbix-host', 'vcd-acme');
      expect(r.stdout).toMatch(/^VM_FLEET OK - 15 VMs read .*, 45 results submitted to Zabbix/);
      expect(received!.request).toBe('sender data');
      expect(received!.data).toHaveLength(1);
      expect(received!.data[0]).toMatchObject({ host: 'vcd-acme', key: 'cloudchecks.fleet.json' });
      const doc = JSON.parse(received!.data[0].value) as { vms: Record<string, { cpu: { code: number } }> };
      expect(Object.keys(doc.vms)).toHaveLength(15);
      expect(doc.vms[BUSY].cpu.code).toBe(1);

      // --compact: the same fields where the template reads them, a third of the size here (a sixth when most VMs are OK).
      const compact = await fleet('--submit', 'zabbix', '--zabbix-port', port, '--zabbix-host', 'vcd-acme', '--compact');
      expect(compact.code).toBe(0);
      const small = JSON.parse(received!.data[0].value) as { vms: Record<string, { cpu: { code: number; summary: string; metrics: unknown[] } }> };
      expect(small.vms[BUSY].cpu).toEqual({
        code: 1,
        summary: expect.stringMatching(/^cpu usage/) as unknown,
        metrics: [{ label: 'cpu_usage', value: expect.any(Number) as unknown }],
      });
      expect(received!.data[0].value.length * 3).toBeLessThan(JSON.stringify(doc).length);

      // A run that reads no VM (here a refused password) still reaches the trapper: its state and cause, no VMs.
      const wrong = join(dir, 'wrong.pw');
      writeFileSync(wrong, 'not-the-password\n', { mode: 0o600 });
      const args = simVcdArgs(sim).map((a) => (a === sim.apis.vcd.info.passwordFile ? wrong : a));
      const refused = await runExecutable(PLUGIN, [...args, '--no-cache', '--submit', 'zabbix', '--zabbix-port', port, '--zabbix-host', 'vcd-acme'], {
        env: { PATH: process.env.PATH },
      });
      expect(refused.code).toBe(3);
      expect(received!.data).toHaveLength(1);
      const failure = JSON.parse(received!.data[0].value) as Record<string, unknown>;
      expect(failure).toEqual({ state: 'UNKNOWN', code: 3, summary: expect.stringMatching(/^login to .* rejected \(HTTP 401/) as unknown });
      expect(refused.stdout).toMatch(/^VM_FLEET UNKNOWN - login to .* rejected \(HTTP 401/);
      expect(refused.stdout).not.toContain('not-the-password');

      silent = true;
      const started = Date.now();
      const stuck = await fleet('--submit', 'zabbix', '--zabbix-port', port, '--zabbix-host', 'vcd-acme', '-t', '4');
      expect(stuck.code).toBe(3);
      expect(stuck.stdout).toMatch(/^VM_FLEET UNKNOWN - timed out after 4s while submitting results to Zabbix/);
      expect(Date.now() - started).toBeLessThan(6_000);
    } finally {
      server.close();
    }
  }, 30_000);
});

describe('check_vm_fleet --submit icinga2', () => {
  it('names the API and the fix when nothing listens, and never shows the password', async () => {
    const r = await fleet(
      '--submit',
      'icinga2',
      '--icinga2-url',
      'https://127.0.0.1:1',
      '--icinga2-user',
      'fleet',
      '--icinga2-password',
      'Sup3r-secret',
      '--icinga2-ca-file',
      sim.caFile,
    );
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^VM_FLEET UNKNOWN - 15 VMs read, results not submitted: cannot submit to the Icinga 2 API: connection refused by 127\.0\.0\.1:1/);
    expect(r.stdout + r.stderr).not.toContain('Sup3r-secret');
  }, 30_000);
});
