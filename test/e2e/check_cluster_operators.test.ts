// check_cluster_operators as a monitoring engine runs it: the built dist/check_cluster_operators
// against the simulator's OpenShift 4.16 cluster API over HTTPS. Run `node build.mjs dist` first.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_MODULE } from '../../sim/cluster/module';
import { OPERATOR_NAMES, OPERATOR_SCENARIOS, type OperatorScenario } from '../../sim/cluster/operators';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { parsePluginOutput } from '../support/perfdata-parse';
import { runExecutable, type RunResult } from '../support/spawn';

const PLUGIN = resolve(__dirname, '../../dist/check_cluster_operators');
const ENV = { PATH: process.env.PATH, HOME: process.env.HOME };
const sims = new Map<OperatorScenario, Simulator>();

beforeAll(async () => {
  if (!existsSync(PLUGIN)) throw new Error('dist/check_cluster_operators is missing: run `node build.mjs dist` first');
  const started = await Promise.all(OPERATOR_SCENARIOS.map((s) => startSimulatorFromArgs(['--cluster-operators', s], [CLUSTER_MODULE])));
  OPERATOR_SCENARIOS.forEach((s, i) => sims.set(s, started[i]));
});
afterAll(async () => {
  await Promise.all([...sims.values()].map((s) => s.close()));
});
afterEach(() => {
  for (const s of sims.values()) s.apis.cluster.faults.set([]);
});

const sim = (s: OperatorScenario) => sims.get(s)!;
const tokenFile = (s: OperatorScenario) => sim(s).apis.cluster.info.tokenFile;
const args = (s: OperatorScenario, extra: string[] = []) => [
  '--url',
  sim(s).apis.cluster.httpsUrl,
  '--ca-file',
  sim(s).caFile,
  '--token-file',
  tokenFile(s),
  ...extra,
];
const run = (argv: string[], env: NodeJS.ProcessEnv = ENV): Promise<RunResult> => runExecutable(PLUGIN, argv, { env });
const firstLine = (r: RunResult) => r.stdout.split('\n')[0];
const SINCE = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ';

describe('scenarios over HTTPS: exit code, first line, strict perfdata', () => {
  it('healthy 4.16 (33 operators): OK with the version', async () => {
    const r = await run(args('healthy'));
    expect(r.code).toBe(0);
    expect(firstLine(r)).toBe(
      'OPERATORS OK - 33 of 33 operators available, none degraded, version 4.16.27 (stable-4.16) | operators=33;;;0 available=33;;;0;33 degraded=0;;;0;33 progressing=0;;;0;33 unavailable=0;;;0;33',
    );
    expect(parsePluginOutput(r.stdout).perfdata.map((m) => [m.label, m.value])).toEqual([
      ['operators', 33],
      ['available', 33],
      ['degraded', 0],
      ['progressing', 0],
      ['unavailable', 0],
    ]);
    expect(r.stderr).toBe('');
  });

  it('etcd Degraded for 2h: CRITICAL naming it, its reason, message and since when; WARNING within --grace 3h', async () => {
    const r = await run(args('degraded'));
    expect(r.code).toBe(2);
    expect(firstLine(r)).toMatch(
      new RegExp(
        `^OPERATORS CRITICAL - 1 of 33 operators failing: etcd Degraded=True for 2h \\(since ${SINCE}\\) \\(EtcdMembers_UnhealthyMembers::NodeController_MasterNodesReady: EtcdMembersDegraded: 2 of 3 members are available, master-1\\.prod-eu1\\.example\\.com is unhealthy, NodeControllerDegraded: The master nodes not ready`,
      ),
    );
    expect(firstLine(r)).toContain(' degraded=1;;;0;33 ');
    const graced = await run(args('degraded', ['--grace', '3h']));
    expect(graced.code).toBe(1);
    expect(firstLine(graced)).toContain('(within --grace)');
  });

  it('ingress unavailable: CRITICAL; --ignore ingress: OK, listed as ignored', async () => {
    const r = await run(args('unavailable'));
    expect(r.code).toBe(2);
    expect(firstLine(r)).toMatch(/^OPERATORS CRITICAL - 1 of 33 operators failing: ingress Available=False for 25m/);
    const ignored = await run(args('unavailable', ['--ignore', 'ingress', '--ignore', 'no-such-operator']));
    expect(ignored.code).toBe(0);
    expect(firstLine(ignored)).toMatch(
      /^OPERATORS OK - 32 of 32 operators available, none degraded, version 4\.16\.27 \(stable-4\.16\), --ignore no-such-operator: no such operator \| operators=32/,
    );
    expect(ignored.stdout).toContain('[OK] ingress: ignored (--ignore)');
  });

  it('network Progressing for 3h: WARNING past the default --progressing-grace 30m, OK with 4h', async () => {
    const r = await run(args('progressing'));
    expect(r.code).toBe(1);
    expect(firstLine(r)).toMatch(/network Progressing=True for 3h .*\(longer than --progressing-grace\)/);
    expect((await run(args('progressing', ['--progressing-grace', '4h']))).code).toBe(0);
  });

  it('an update in progress: OK with its target and progress, WARNING past --update-grace', async () => {
    const r = await run(args('updating'));
    expect(r.code).toBe(0);
    expect(firstLine(r)).toMatch(
      new RegExp(
        `^OPERATORS OK - 33 of 33 operators available, none degraded, updating to 4\\.16\\.28 for 40m \\(since ${SINCE}\\): 512 of 903 done \\(56% complete\\), network progressing \\|`,
      ),
    );
    const late = await run(args('updating', ['--update-grace', '30m']));
    expect(late.code).toBe(1);
    expect(firstLine(late)).toContain('(longer than --update-grace)');
  });

  it('a Failing ClusterVersion: CRITICAL with its message', async () => {
    const r = await run(args('failing'));
    expect(r.code).toBe(2);
    expect(firstLine(r)).toMatch(
      /cluster version Failing=True for 45m \(since .*\) \(ClusterOperatorNotAvailable: Cluster operator monitoring is not available\)/,
    );
  });

  it('updates available: OK, said; WARNING with --update-available-state WARNING', async () => {
    const r = await run(args('updates'));
    expect(r.code).toBe(0);
    expect(firstLine(r)).toContain('3 updates available (4.16.30, 4.16.29, 4.16.28)');
    expect((await run(args('updates', ['--update-available-state', 'WARNING']))).code).toBe(1);
  });

  it('sick: CRITICAL naming both failing operators first, then the long rollout and the unreachable update graph', async () => {
    const r = await run(args('sick'));
    expect(r.code).toBe(2);
    expect(firstLine(r)).toMatch(
      /^OPERATORS CRITICAL - 2 of 33 operators failing: etcd Degraded=True .*, ingress Available=False .*, network Progressing=True for 3h/,
    );
    const out = parsePluginOutput(r.stdout);
    expect(out.longOutput.filter((l) => !l.startsWith('[OK]'))).toHaveLength(4);
    expect(out.longOutput).toContainEqual(
      expect.stringMatching(/^\[WARNING\] ClusterVersion 4\.16\.27: cannot retrieve updates: RetrievedUpdates=False for 6h .*RemoteFailed/),
    );
  });

  it('plain Kubernetes (no config.openshift.io API): one UNKNOWN line', async () => {
    const r = await run(args('none'));
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /^OPERATORS UNKNOWN - https:\/\/127\.0\.0\.1:\d+ has no ClusterOperators and no ClusterVersion \(HTTP 404 for both \(server says: the server could not find the requested resource\)\): not an OpenShift 4 cluster .*\n$/,
    );
  });
});

describe('per-operator items: --operator, --output json, --discovery', () => {
  it('--discovery lists every operator as {#OPERATOR}', async () => {
    const r = await run(args('healthy', ['--discovery']));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([...OPERATOR_NAMES].sort().map((n) => ({ '{#OPERATOR}': n })));
  });

  it('--output json lists every operator with its state (the Zabbix master item)', async () => {
    const r = await run(args('sick', ['--output', 'json']));
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout) as {
      state: string;
      items: Array<{ name: string; state: string; text: string }>;
      metrics: Array<{ label: string; value: number }>;
    };
    expect(doc.state).toBe('CRITICAL');
    for (const name of OPERATOR_NAMES)
      expect(
        doc.items.some((i) => i.name === name),
        name,
      ).toBe(true);
    expect(doc.items.find((i) => i.name === 'etcd')?.state).toBe('CRITICAL');
    expect(doc.items.find((i) => i.name === 'console')?.state).toBe('OK');
    expect(doc.metrics.find((m) => m.label === 'degraded')?.value).toBe(1);
  });

  it('--operator NAME: that one only (not the version); an unknown name is UNKNOWN with the names', async () => {
    const etcd = await run(args('failing', ['--operator', 'etcd']));
    expect(etcd.code).toBe(0);
    expect(firstLine(etcd)).toBe(
      'OPERATORS OK - etcd 4.16.27: available, not degraded | operators=1;;;0 available=1;;;0;1 degraded=0;;;0;1 progressing=0;;;0;1 unavailable=0;;;0;1',
    );
    const missing = await run(args('healthy', ['--operator', 'etcd2']));
    expect(missing.code).toBe(3);
    expect(missing.stdout).toMatch(/^OPERATORS UNKNOWN - no ClusterOperator etcd2 among the 33 the cluster lists \(authentication, /);
    const bad = await run(args('healthy', ['--operator', 'Etcd;rm']));
    expect(bad.stdout).toMatch(/^OPERATORS UNKNOWN - invalid --operator "Etcd, rm": expected a ClusterOperator name/);
  });
});

describe('a hostile or broken server, and the account', () => {
  it.each([
    [
      'a list over --max-bytes',
      [],
      ['--max-bytes', '20000'],
      /^OPERATORS UNKNOWN - response from .*\/clusteroperators is larger than --max-bytes 20000, raise --max-bytes/,
    ],
    [
      'more operators than --max-operators',
      [],
      ['--max-operators', '10'],
      /^OPERATORS UNKNOWN - unexpected response from .*\/clusteroperators: items holds 33 operators, more than --max-operators 10/,
    ],
    [
      'an HTML page with 200',
      [{ path: '/clusteroperators$', kind: 'body', body: '<html><body>Application is not available</body></html>' }],
      [],
      /^OPERATORS UNKNOWN - response from .*\/clusteroperators is not JSON \(text\/html/,
    ],
    [
      'a ClusterVersion of another shape',
      [{ path: '/clusterversions/', kind: 'body', contentType: 'application/json', body: '{"kind":"ClusterVersion","status":{"availableUpdates":"4.17"}}' }],
      [],
      /^OPERATORS UNKNOWN - unexpected response from .*\/clusterversions\/version: status\.availableUpdates is a string, not an array or null/,
    ],
  ])('%s', async (_, faults, extra, pattern) => {
    sim('healthy').apis.cluster.faults.set(faults as never);
    const r = await run(args('healthy', extra));
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(pattern);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('an operator message with control characters and a megabyte of text: every line clean and bounded', async () => {
    const co = {
      kind: 'ClusterOperatorList',
      items: [
        {
          metadata: { name: 'etcd' },
          status: {
            conditions: [
              { type: 'Available', status: 'True' },
              { type: 'Degraded', status: 'True', reason: 'Bad', message: `first\u001b[2J\r\nsecond | third; ${'x '.repeat(500_000)}` },
            ],
          },
        },
      ],
    };
    sim('healthy').apis.cluster.faults.set([{ path: '/clusteroperators$', kind: 'body', contentType: 'application/json', body: JSON.stringify(co) }]);
    const r = await run(args('healthy'));
    expect(r.code).toBe(2);
    expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(r.stdout.split('\n').every((line) => line.length <= 1500)).toBe(true);
    expect(firstLine(r)).toMatch(/^OPERATORS CRITICAL - 1 of 1 operator failing: etcd Degraded=True \(Bad: first \[2J, second \/ third, x x x/);
  });

  it('a server that stalls: UNKNOWN at -t', async () => {
    sim('healthy').apis.cluster.faults.set([{ kind: 'delay', ms: 5000 }]);
    const r = await run(args('healthy', ['-t', '1']));
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^OPERATORS UNKNOWN - timed out after 1s while reading cluster operators from https:\/\/127\.0\.0\.1:\d+, raise -t\/--timeout/);
    expect(r.ms).toBeLessThan(1500);
  });

  it('an account without cluster-reader: the permission and the role to grant', async () => {
    const r = await run([
      '--url',
      sim('healthy').apis.cluster.httpsUrl,
      '--ca-file',
      sim('healthy').caFile,
      '--token-file',
      sim('healthy').apis.cluster.info.noReaderTokenFile,
    ]);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /^OPERATORS UNKNOWN - HTTP 403 from .*: the account may not (list clusteroperators|get clusterversions)\.config\.openshift\.io .*grant it the cluster-reader role/,
    );
  });

  it('--help lists the options and examples, and exits 3', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(3);
    for (const text of [
      '--grace',
      '--progressing-grace',
      '--update-grace',
      '--ignore',
      '--operator',
      '--discovery',
      '--update-available-state',
      '--not-upgradeable-state',
      'cluster-reader',
      '--kubeconfig',
      'check_cluster_operators --kubeconfig',
    ])
      expect(r.stdout).toContain(text);
  });

  it('the token never appears in the output, at any -v level', async () => {
    const secret = readFileSync(tokenFile('sick'), 'utf8').trim();
    for (const v of [[], ['-v'], ['-vv'], ['-vvv']]) {
      const r = await run(args('sick', v));
      expect(r.stdout + r.stderr).not.toContain(secret);
      expect(r.code).toBe(2);
    }
  });
});
