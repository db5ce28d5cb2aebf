// contrib/nagios/*.cfg, checked by the real Nagios 4 (`nagios4 -v`) on a private copy of this
// host's stock configuration (Debian's nagios.cfg, templates.cfg, contacts.cfg, cfg_dir
// conf.d; support/nagios.ts): the set-up steps docs/nagios.md gives a user of a checkout,
// run as written, must give no errors and no warnings.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { documentedSteps, runDocumentedSteps, shimCalls } from './support/documented-steps';
import { announceSkip, findExecutable, runCommandLine } from './support/engines';
import { hasStockNagiosConfig, parseVerification, StockNagios } from './support/nagios';
import { BuiltSimulator, DIST, REPO } from './support/simulator';

const nagios4 = findExecutable('nagios4');
if (!nagios4 || !hasStockNagiosConfig()) announceSkip('nagios4', 'nagios4-core (its stock /etc/nagios4)');
const suite = nagios4 && hasStockNagiosConfig() ? describe : describe.skip;

/** How many objects of a type a shipped file defines. */
const definitions = (file: string, type: string) =>
  readFileSync(join(REPO, 'contrib/nagios', file), 'utf8').match(new RegExp(`^define ${type}\\s*\\{`, 'gm'))?.length ?? 0;

/**
 * What Nagios runs for a service whose check_command names `command`: the command_line of
 * contrib/nagios/commands.cfg with $USER1$ (the built plugins), each $ARGn$ and
 * $SERVICESTATEID$ (0, a service's state before its first check) substituted.
 */
function commandLine(command: string, ...args: string[]): string {
  const commands = readFileSync(join(REPO, 'contrib/nagios/commands.cfg'), 'utf8');
  const template = new RegExp(`command_name\\s+${command}\\n\\s+command_line\\s+(.+)$`, 'm').exec(commands)![1];
  return template.replace(/\$(USER1|SERVICESTATEID|ARG(\d+))\$/g, (m, name: string, n?: string) =>
    name === 'USER1' ? DIST : name === 'SERVICESTATEID' ? '0' : (args[Number(n) - 1] ?? m),
  );
}

/** The last $ARGn$ of the example service that runs `command` (`before`: how many come first), the CA path the test's. */
function exampleExtra(command: string, before: number, caFile: string): string {
  const example = readFileSync(join(REPO, 'contrib/nagios/example-services.cfg'), 'utf8');
  return new RegExp(`check_command\\s+${command}${'!.*'.repeat(before)}!(.+)$`, 'm')
    .exec(example)![1]
    .replace(/\/etc\/nagios4\/secrets\/ocp-prod-ca\.pem/, caFile);
}

/** `body` with a simulator of its own, stopped after it. */
async function withSimulator(argv: string[], body: (ready: Awaited<ReturnType<BuiltSimulator['start']>>) => Promise<void> | void): Promise<void> {
  const sim = new BuiltSimulator(argv);
  try {
    await body(await sim.start());
  } finally {
    await sim.stop();
  }
}

suite('Nagios 4 with its stock configuration accepts contrib/nagios', () => {
  const root = mkdtempSync(join(tmpdir(), 'cc-nagios-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  // A checkout's user has no package: its command file is not in the stock cfg_dir.
  const copy = (name: string) => new StockNagios(nagios4!, join(root, name), { skipPluginConfig: /^cloudchecks/ });

  it('docs/nagios.md "Set-up from a checkout", run as written: nagios4 -v with no errors and no warnings', () => {
    const stock = copy('stock').verify(30_000);
    expect(stock.warnings + stock.errors, stock.output).toBe(0);

    const nagios = copy('checkout');
    const steps = documentedSteps('docs/nagios.md', 'nagios-checkout');
    expect(steps.some((l) => l.startsWith('nagios4 -v '))).toBe(true);
    const runs = runDocumentedSteps(steps, { cwd: REPO, localize: (l) => nagios.localize(l), dir: join(root, 'sandbox') });
    for (const run of runs.filter((x) => !x.line.startsWith('nagios4 -v'))) expect(run.code, `${run.line}\n${run.output}`).toBe(0);
    const verify = runs.find((x) => x.line.startsWith('nagios4 -v'))!;
    const r = parseVerification(verify.code, verify.output);
    expect(r.output).not.toMatch(/Warning:|Error:/);
    expect([r.warnings, r.errors]).toEqual([0, 0]);
    expect(r.checked.commands - stock.checked.commands).toBe(definitions('commands.cfg', 'command') + definitions('vm-discovery.cfg', 'command'));
    expect(r.checked.hosts - stock.checked.hosts).toBe(2);
    expect(r.checked.services - stock.checked.services).toBe(10); // the services of example-services.cfg (apiserver, cluster-certs and nodes-with-vms among them)
    expect(definitions('commands.cfg', 'command')).toBeGreaterThanOrEqual(9);
    expect(r.code).toBe(0);
    expect(shimCalls(join(root, 'sandbox'))).toContain('systemctl reload nagios4');
  });

  // What Nagios does with an example service's check_command: $USER1$ and the $ARGn$
  // substituted into the command_line of commands.cfg, then the line run by /bin/sh.
  it('the command line Nagios builds from cloudchecks_cluster_operators and the example service runs the check', () =>
    withSimulator(['--cluster-scenario', 'sick'], (ready) => {
      const extra = exampleExtra('cloudchecks_cluster_operators', 2, ready.caFile);
      const line = commandLine('cloudchecks_cluster_operators', ready.apis.cluster.httpsUrl, ready.apis.cluster.tokenFile, `${extra} --ignore insights`);
      const { out, code } = runCommandLine(line, root);
      expect(out).toMatch(/^OPERATORS CRITICAL - 2 of 32 operators failing: etcd Degraded=True for 2h .*, ingress Available=False for 25m /);
      expect(code).toBe(2);
    }));

  it.each([
    ['cloudchecks_apiserver', 2, /^APISERVER CRITICAL - API server v1\.27\.10\+28ed2d7: readyz failed: etcd \(reason withheld\)/],
    ['cloudchecks_cluster_certs', 1, /^CERTS WARNING - nearest expiry: .*2 kubelet CSRs pending over 1h: csr-n2x7k/],
  ])('the command line Nagios builds from %s and the example service runs the check', (command, state, first) =>
    withSimulator(['--cluster-scenario', 'sick'], (ready) => {
      const line = commandLine(command, ready.apis.cluster.httpsUrl, ready.apis.cluster.tokenFile, exampleExtra(command, 2, ready.caFile));
      const { out, code } = runCommandLine(line, root);
      expect(out).toMatch(first);
      expect(code).toBe(state);
    }),
  );

  it("the command line Nagios builds from cloudchecks_nodes_vcd and the example service names the failing nodes' VMs", () =>
    withSimulator(['--cluster-scenario', 'vcd', '--vcd-scenario', 'nodes'], (ready) => {
      const vcd = ready.apis.vcd;
      const ini = join(root, 'vcd.ini');
      writeFileSync(
        ini,
        `[nodes-vcd]\nurl=${vcd.httpsUrl}\nuser=${vcd.user}\norg=${vcd.org}\npassword-file=${vcd.passwordFile}\nca-file=${ready.caFile}\ncache-dir=${join(root, 'cache')}\n`,
        { mode: 0o600 },
      );
      const extra = exampleExtra('cloudchecks_nodes_vcd', 3, ready.caFile);
      const line = commandLine('cloudchecks_nodes_vcd', ready.apis.cluster.httpsUrl, ready.apis.cluster.tokenFile, `nodes-vcd@${ini}`, extra);
      const { out, code } = runCommandLine(line, root);
      expect(out).toMatch(
        /^NODES CRITICAL - 4 of 6 nodes failing: .*VMs: worker-2\.prod-eu1\.example\.com VM powered off, worker-3\.prod-eu1\.example\.com VM cpu 100% /,
      );
      expect(code).toBe(2);
    }));

  it('the command line Nagios builds from cloudchecks_vm_snapshot raises a snapshot 10 days old', () =>
    withSimulator(['--vcd-scenario', 'default'], (ready) => {
      const vcd = ready.apis.vcd;
      const extra = `--vapp shop --ca-file ${ready.caFile} --no-cache`;
      const { out, code } = runCommandLine(commandLine('cloudchecks_vm_snapshot', vcd.httpsUrl, vcd.user, vcd.org, vcd.passwordFile, 'db-03', extra), root);
      expect(out).toMatch(
        /^VM_SNAPSHOT CRITICAL - 1 snapshot on db-03 \(vm-[0-9a-f-]+\), oldest 10d( \d+h)? old .* \| snapshots=1;;;0 snapshot_age=\d+s;259200;604800;0 /,
      );
      expect(code).toBe(2);
    }));

  it('the command line Nagios builds from cloudchecks_vdc runs the check', () =>
    withSimulator(['--vcd-scenario', 'default'], (ready) => {
      const vcd = ready.apis.vcd;
      const extra = `--vdc acme-analytics --ca-file ${ready.caFile} --no-cache`;
      const { out, code } = runCommandLine(commandLine('cloudchecks_vdc', vcd.httpsUrl, vcd.user, vcd.org, vcd.passwordFile, extra), root);
      expect(out).toMatch(/^VDC WARNING - acme-analytics: memory 88% \(56\.3 GiB of 64 GiB\), .* \| acme-analytics__cpu_pct=37\.5%;80;90;0;100 /);
      expect(code).toBe(1);
    }));
});
