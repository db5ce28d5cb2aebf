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

  it('the command line Nagios builds from cloudchecks_cluster_operators and the example service runs the check', async () => {
    // What Nagios does with the example service's check_command: $USER1$ and the $ARGn$
    // substituted into the command_line of commands.cfg, then the line run by /bin/sh.
    const sim = new BuiltSimulator(['--cluster-scenario', 'sick']);
    const ready = await sim.start();
    try {
      const commands = readFileSync(join(REPO, 'contrib/nagios/commands.cfg'), 'utf8');
      const template = /command_name\s+cloudchecks_cluster_operators\n\s+command_line\s+(.+)$/m.exec(commands)![1];
      const example = readFileSync(join(REPO, 'contrib/nagios/example-services.cfg'), 'utf8');
      const extra = /check_command\s+cloudchecks_cluster_operators!.*!.*!(.+)$/m
        .exec(example)![1]
        .replace(/\/etc\/nagios4\/secrets\/ocp-prod-ca\.pem/, ready.caFile);
      const args: Record<string, string> = {
        $USER1$: DIST,
        $ARG1$: ready.apis.cluster.httpsUrl,
        $ARG2$: ready.apis.cluster.tokenFile,
        $ARG3$: `${extra} --ignore insights`,
      };
      const line = template.replace(/\$(USER1|ARG[123])\$/g, (m) => args[m]);
      const { out, code } = runCommandLine(line, root);
      expect(out).toMatch(/^OPERATORS CRITICAL - 2 of 32 operators failing: etcd Degraded=True for 2h .*, ingress Available=False for 25m /);
      expect(code).toBe(2);
    } finally {
      await sim.stop();
    }
  });
  it.each([
    ['cloudchecks_apiserver', 2, /^APISERVER CRITICAL - API server v1\.27\.10\+28ed2d7: readyz failed: etcd \(reason withheld\)/],
    ['cloudchecks_cluster_certs', 1, /^CERTS WARNING - nearest expiry: .*2 kubelet CSRs pending over 1h: csr-n2x7k/],
  ])('the command line Nagios builds from %s and the example service runs the check', async (command, state, first) => {
    const sim = new BuiltSimulator(['--cluster-scenario', 'sick']);
    const ready = await sim.start();
    try {
      const commands = readFileSync(join(REPO, 'contrib/nagios/commands.cfg'), 'utf8');
      const template = new RegExp(`command_name\\s+${command}\\n\\s+command_line\\s+(.+)$`, 'm').exec(commands)![1];
      const example = readFileSync(join(REPO, 'contrib/nagios/example-services.cfg'), 'utf8');
      const extra = new RegExp(`check_command\\s+${command}!.*!.*!(.+)$`, 'm')
        .exec(example)![1]
        .replace(/\/etc\/nagios4\/secrets\/ocp-prod-ca\.pem/, ready.caFile);
      const args: Record<string, string> = { $USER1$: DIST, $ARG1$: ready.apis.cluster.httpsUrl, $ARG2$: ready.apis.cluster.tokenFile, $ARG3$: extra };
      const line = template.replace(/\$(USER1|ARG[123])\$/g, (m) => args[m]);
      const { out, code } = runCommandLine(line, root);
      expect(out).toMatch(first);
      expect(code).toBe(state);
    } finally {
      await sim.stop();
    }
  });

  it("the command line Nagios builds from cloudchecks_nodes_vcd and the example service names the failing nodes' VMs", async () => {
    const sim = new BuiltSimulator(['--cluster-scenario', 'vcd', '--vcd-scenario', 'nodes']);
    const ready = await sim.start();
    try {
      const commands = readFileSync(join(REPO, 'contrib/nagios/commands.cfg'), 'utf8');
      const template = /command_name\s+cloudchecks_nodes_vcd\n\s+command_line\s+(.+)$/m.exec(commands)![1];
      const example = readFileSync(join(REPO, 'contrib/nagios/example-services.cfg'), 'utf8');
      const extra = /check_command\s+cloudchecks_nodes_vcd!.*!.*!.*!(.+)$/m
        .exec(example)![1]
        .replace(/\/etc\/nagios4\/secrets\/ocp-prod-ca\.pem/, ready.caFile);
      const vcd = ready.apis.vcd;
      const ini = join(root, 'vcd.ini');
      writeFileSync(
        ini,
        `[nodes-vcd]\nurl=${vcd.httpsUrl}\nuser=${vcd.user}\norg=${vcd.org}\npassword-file=${vcd.passwordFile}\nca-file=${ready.caFile}\ncache-dir=${join(root, 'cache')}\n`,
        { mode: 0o600 },
      );
      const args: Record<string, string> = {
        $USER1$: DIST,
        $ARG1$: ready.apis.cluster.httpsUrl,
        $ARG2$: ready.apis.cluster.tokenFile,
        $ARG3$: `nodes-vcd@${ini}`,
        $ARG4$: extra,
      };
      const { out, code } = runCommandLine(
        template.replace(/\$(USER1|ARG[1-4])\$/g, (m) => args[m]),
        root,
      );
      expect(out).toMatch(
        /^NODES CRITICAL - 4 of 6 nodes failing: .*VMs: worker-2\.prod-eu1\.example\.com VM powered off, worker-3\.prod-eu1\.example\.com VM cpu 100% /,
      );
      expect(code).toBe(2);
    } finally {
      await sim.stop();
    }
  });

  it('the command line Nagios builds from cloudchecks_vm_snapshot raises a snapshot 10 days old', async () => {
    const sim = new BuiltSimulator(['--vcd-scenario', 'default']);
    const ready = await sim.start();
    try {
      const commands = readFileSync(join(REPO, 'contrib/nagios/commands.cfg'), 'utf8');
      const template = /command_name\s+cloudchecks_vm_snapshot\n\s+command_line\s+(.+)$/m.exec(commands)![1];
      const vcd = ready.apis.vcd;
      const args: Record<string, string> = {
        $USER1$: DIST,
        $ARG1$: vcd.httpsUrl,
        $ARG2$: vcd.user,
        $ARG3$: vcd.org,
        $ARG4$: vcd.passwordFile,
        $ARG5$: 'db-03',
        $ARG6$: `--vapp shop --ca-file ${ready.caFile} --no-cache`,
      };
      const { out, code } = runCommandLine(
        template.replace(/\$(USER1|ARG[1-6])\$/g, (m) => args[m]),
        root,
      );
      expect(out).toMatch(
        /^VM_SNAPSHOT CRITICAL - 1 snapshot on db-03 \(vm-[0-9a-f-]+\), oldest 10d( \d+h)? old .* \| snapshots=1;;;0 snapshot_age=\d+s;259200;604800;0 /,
      );
      expect(code).toBe(2);
    } finally {
      await sim.stop();
    }
  });

  it('the command line Nagios builds from cloudchecks_vdc runs the check', async () => {
    const sim = new BuiltSimulator(['--vcd-scenario', 'default']);
    const ready = await sim.start();
    try {
      const commands = readFileSync(join(REPO, 'contrib/nagios/commands.cfg'), 'utf8');
      const template = /command_name\s+cloudchecks_vdc\n\s+command_line\s+(.+)$/m.exec(commands)![1];
      const vcd = ready.apis.vcd;
      const args: Record<string, string> = {
        $USER1$: DIST,
        $ARG1$: vcd.httpsUrl,
        $ARG2$: vcd.user,
        $ARG3$: vcd.org,
        $ARG4$: vcd.passwordFile,
        $ARG5$: `--vdc acme-analytics --ca-file ${ready.caFile} --no-cache`,
      };
      const { out, code } = runCommandLine(
        template.replace(/\$(USER1|ARG[1-5])\$/g, (m) => args[m]),
        root,
      );
      expect(out).toMatch(/^VDC WARNING - acme-analytics: memory 88% \(56\.3 GiB of 64 GiB\), .* \| acme-analytics__cpu_pct=37\.5%;80;90;0;100 /);
      expect(code).toBe(1);
    } finally {
      await sim.stop();
    }
  });
});
