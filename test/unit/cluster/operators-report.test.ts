// The judgement of check_cluster_operators on documents real clusters returned
// (test/fixtures/cluster/operators/README.md says where each came from); "now" is picked
// relative to each capture's own times.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readClusterOperatorList, type ClusterOperatorStatus } from '../../../lib/cluster/cluster-operator';
import { readClusterVersion } from '../../../lib/cluster/cluster-version';
import {
  condenseMessage,
  describeSince,
  evaluateOperators,
  judgeClusterVersion,
  judgeOperator,
  operatorDiscovery,
  type OperatorRules,
} from '../../../lib/cluster/operators-report';
import { runRedactor } from '../../../lib/plugin/redact';
import { renderJson, renderNagios } from '../../../lib/plugin/result';
import { State } from '../../../lib/plugin/state';

const FIXTURES = join(__dirname, '../../fixtures/cluster/operators');
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>;
const operators = (name: string) => readClusterOperatorList(fixture(name), 1000);
const version = (name: string) => readClusterVersion(fixture(name));
const rules = (now: string, more: Partial<OperatorRules> = {}): OperatorRules => ({
  progressingGrace: 1800,
  updateGrace: 7200,
  notUpgradeableState: State.OK,
  updateAvailableState: State.OK,
  ignore: [],
  listAll: false,
  now: Date.parse(now),
  ...more,
});
const op = (name: string, conditions: Array<[string, string, string?]>): ClusterOperatorStatus => ({
  name,
  conditions: conditions.map(([type, status, lastTransitionTime]) => ({ type, status, lastTransitionTime })),
});
const HEALTHY: Array<[string, string, string?]> = [
  ['Available', 'True'],
  ['Degraded', 'False'],
  ['Progressing', 'False'],
];

describe('judgeOperator: the rule and its delays', () => {
  const now = '2026-11-23T12:00:00Z';
  it.each([
    ['healthy', HEALTHY, {}, State.OK],
    [
      'Degraded=True, no --grace: CRITICAL at once',
      [
        ['Available', 'True'],
        ['Degraded', 'True', '2026-11-23T11:58:00Z'],
      ],
      {},
      State.CRITICAL,
    ],
    [
      'Degraded=True for 2m within --grace 10m: WARNING',
      [
        ['Available', 'True'],
        ['Degraded', 'True', '2026-11-23T11:58:00Z'],
      ],
      { grace: 600 },
      State.WARNING,
    ],
    [
      'Degraded=True for 2h past --grace 10m: CRITICAL',
      [
        ['Available', 'True'],
        ['Degraded', 'True', '2026-11-23T10:00:00Z'],
      ],
      { grace: 600 },
      State.CRITICAL,
    ],
    [
      'Available=False without lastTransitionTime: never within grace',
      [
        ['Available', 'False'],
        ['Degraded', 'False'],
      ],
      { grace: 600 },
      State.CRITICAL,
    ],
    ['Available missing: CRITICAL', [['Degraded', 'False']], {}, State.CRITICAL],
    [
      'Available=Unknown: CRITICAL',
      [
        ['Available', 'Unknown', '2026-11-23T10:00:00Z'],
        ['Degraded', 'False'],
      ],
      {},
      State.CRITICAL,
    ],
    [
      'Progressing=True for 10m: OK',
      [
        ['Available', 'True'],
        ['Degraded', 'False'],
        ['Progressing', 'True', '2026-11-23T11:50:00Z'],
      ],
      {},
      State.OK,
    ],
    [
      'Progressing=True for 3h: WARNING',
      [
        ['Available', 'True'],
        ['Degraded', 'False'],
        ['Progressing', 'True', '2026-11-23T09:00:00Z'],
      ],
      {},
      State.WARNING,
    ],
    ['Upgradeable=False: OK, noted', [...HEALTHY, ['Upgradeable', 'False']], {}, State.OK],
    ['Upgradeable=False with --not-upgradeable-state WARNING', [...HEALTHY, ['Upgradeable', 'False']], { notUpgradeableState: State.WARNING }, State.WARNING],
  ] as const)('%s', (_, conditions, more, state) => {
    expect(judgeOperator(op('x', conditions as Array<[string, string, string?]>), rules(now, more)).state).toBe(state);
  });
});

describe('evaluateOperators on real clusters', () => {
  it('4.14.1 healthy: OK, the version and every count in perfdata', () => {
    const r = evaluateOperators(
      operators('clusteroperators-4.14.1-healthy.json'),
      version('clusterversion-4.14.1-healthy.json'),
      rules('2023-11-03T18:30:00Z'),
    );
    expect(r.state).toBe(State.OK);
    expect(renderNagios('OPERATORS', r).split('\n')[0]).toBe(
      'OPERATORS OK - 33 of 33 operators available, none degraded, version 4.14.1 (candidate-4.14) | operators=33;;;0 available=33;;;0;33 degraded=0;;;0;33 progressing=0;;;0;33 unavailable=0;;;0;33',
    );
  });

  it('4.14.1 mid-update with etcd and the control plane Degraded: CRITICAL, each failing operator named with condition, reason, message and since when', () => {
    const r = evaluateOperators(
      operators('clusteroperators-4.14.1-degraded-etcd-unavailable-cpms.json'),
      version('clusterversion-4.14.1-failing-partial-update.json'),
      rules('2023-11-03T18:30:00Z'),
    );
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toMatch(
      /^5 of 33 operators failing: control-plane-machine-set Available=False for 2h \(since 2023-11-03T16:26:37Z\) \(UnavailableReplicas: Missing 1 available replica\(s\)\), etcd Degraded=True for 2h \(since 2023-11-03T16:28:16Z\) \(EtcdEndpoints_ErrorUpdatingEtcdEndpoints \(\+2\): /,
    );
    // Each controller's line keeps its start, so "2 of 3 members" survives the dump before it.
    expect(r.summary).toContain('EtcdMembersDegraded: 2 of 3');
    expect(r.summary).toContain(
      'cluster version Failing=True for 63m (since 2023-11-03T17:26:54Z) (ClusterOperatorsDegraded: Cluster operators etcd, kube-apiserver are degraded)',
    );
    expect(r.metrics?.map((m) => `${m.label}=${m.value}`)).toEqual(['operators=33', 'available=32', 'degraded=4', 'progressing=3', 'unavailable=1']);
    const lines = renderNagios('OPERATORS', r).split('\n');
    expect(lines[0].length).toBeLessThan(1200);
    expect(lines).toContain(
      '[WARNING] machine-config 4.14.0-rc.3: Progressing=True for 2h (since 2023-11-03T16:22:13Z) (Working towards 4.14.1) (longer than --progressing-grace)',
    );
  });

  it('many operators failing: the first line gives two findings, names a few more and counts the rest; the long output has each', () => {
    const now = '2026-11-23T12:00:00Z';
    const message =
      'NodeControllerDegraded: The master nodes not ready: node "master-0" not ready since 2026-11-23 10:00:00 +0000 UTC because KubeletNotReady'.repeat(3);
    const failing = Array.from({ length: 20 }, (_, i) => ({
      ...op(`operator-${String(i).padStart(2, '0')}`, [
        ['Available', 'True'],
        ['Degraded', 'True', '2026-11-23T10:00:00Z'],
      ]),
      conditions: [
        { type: 'Available', status: 'True' },
        { type: 'Degraded', status: 'True', lastTransitionTime: '2026-11-23T10:00:00Z', reason: 'NodeController_MasterNodesReady', message },
      ],
    }));
    const r = evaluateOperators([...failing, op('zz-healthy', HEALTHY)], undefined, rules(now, { operator: undefined }));
    const lines = renderNagios('OPERATORS', r).split('\n');
    expect(lines[0]).toMatch(
      /^OPERATORS CRITICAL - 20 of 21 operators failing: operator-00 Degraded=True for 2h .*, operator-01 Degraded=True for 2h .*, and 18 more failing: operator-02, operator-03, operator-04, operator-05, operator-06, operator-07 and 12 more \(below\), no ClusterVersion \(404\) \| /,
    );
    expect(lines[0]).not.toMatch(/… \d+ more/);
    expect(lines[0].length).toBeLessThan(800);
    for (const o of failing) expect(lines.some((l) => l.startsWith(`[CRITICAL] ${o.name}: Degraded=True`))).toBe(true);
  });

  it('4.15.0-ec.2: machine-config unavailable for 20 min is WARNING within --grace 30m, CRITICAL with --grace 10m; RetrievedUpdates=False (VersionNotFound) is WARNING', () => {
    const ops = operators('clusteroperators-4.15.0-ec.2-unavailable-machine-config.json');
    const cv = version('clusterversion-4.15.0-ec.2-retrievedupdates-false.json');
    const now = '2023-11-24T15:49:00Z';
    const mco = ops.find((o) => o.name === 'machine-config')!;
    expect(judgeOperator(mco, rules(now, { grace: 1800 })).state).toBe(State.WARNING);
    expect(judgeOperator(mco, rules(now, { grace: 600 })).state).toBe(State.CRITICAL);
    // The 1486-character message: its bracketed list of certificate fields goes, the sentence stays.
    expect(judgeOperator(mco, rules(now)).text).toBe(
      'machine-config 4.14.0-rc.3: Available=False for 20m (since 2023-11-24T15:28:04Z) (MachineConfigControllerFailed: Cluster not available for [{operator 4.14.0-rc.3}]: ControllerConfig.machineconfiguration.openshift.io "machine-config-controller" is invalid: […])',
    );
    const findings = judgeClusterVersion(cv, rules(now));
    expect(findings.find((f) => f.text.startsWith('cannot retrieve updates'))?.state).toBe(State.WARNING);
    expect(findings.find((f) => f.text.startsWith('updating to 4.15.0-ec.2'))).toMatchObject({
      state: State.OK,
      text: 'updating to 4.15.0-ec.2 for 59m (since 2023-11-24T14:49:35Z): 110 of 863 done (12% complete)',
    });
  });

  it('4.7.16: ingress Degraded, authentication and etcd Upgradeable=False noted (WARNING with the option), 4.7.18 offered (raised with --update-available-state)', () => {
    const ops = operators('clusteroperators-4.7.16-ingress-degraded-upgradeable-false.json');
    const cv = version('clusterversion-4.7.16-upgradeable-false-available-updates.json');
    const r = evaluateOperators(ops, cv, rules('2021-07-13T00:00:00Z'));
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toMatch(
      /^1 of 31 operators failing: ingress Degraded=True for 99m \(since 2021-07-12T22:20:58Z\) \(IngressControllersDegraded: Some ingresscontrollers are degraded/,
    );
    expect(r.summary).toContain('1 update available (4.7.18)');
    expect(r.summary).toContain('Upgradeable=False: authentication, etcd');
    const ignored = evaluateOperators(ops, cv, rules('2021-07-13T00:00:00Z', { ignore: ['ingress'], updateAvailableState: State.WARNING }));
    expect(ignored.state).toBe(State.WARNING);
    expect(ignored.items).toContainEqual({ name: 'ingress', state: State.OK, text: 'ingress: ignored (--ignore)' });
    const strict = evaluateOperators(ops, cv, rules('2021-07-13T00:00:00Z', { ignore: ['ingress'], notUpgradeableState: State.WARNING }));
    expect(strict.state).toBe(State.WARNING);
    expect(strict.summary).toContain(
      'authentication Upgradeable=False for 5d (since 2021-07-07T11:26:28Z) (UnsupportedConfigOverrides_UnsupportedConfigOverridesSet',
    );
  });

  it('a Failing ClusterVersion after a completed update (4.16.0-ec.3) is CRITICAL with its message, healthy operators or not', () => {
    const r = evaluateOperators(
      operators('clusteroperators-4.14.1-healthy.json'),
      version('clusterversion-4.16.0-ec.3-failing-completed.json'),
      rules('2024-03-01T00:00:00Z'),
    );
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toMatch(/cluster version Failing=True .*\(ClusterOperatorDegraded: Cluster operator machine-config is degraded\)/);
  });

  it('an update in progress is OK with target and progress, WARNING past --update-grace', () => {
    const cv = version('clusterversion-4.14.1-updating-available-updates.json');
    const ops = operators('clusteroperators-4.14.1-healthy.json');
    const started = Date.parse(cv.latest!.startedTime!);
    const early = evaluateOperators(ops, cv, { ...rules('2000-01-01T00:00:00Z'), now: started + 40 * 60_000 });
    expect(early.state).toBe(State.OK);
    expect(early.summary).toContain('updating to 4.14.1 for 40m (since 2024-02-07T16:31:03Z): 139 of 859 done (16% complete)');
    expect(early.summary).toContain('10 updates available (4.14.11, 4.14.10, 4.14.9, …)');
    const late = evaluateOperators(ops, cv, { ...rules('2000-01-01T00:00:00Z'), now: started + 3 * 3600_000 });
    expect(late.state).toBe(State.WARNING);
    expect(late.summary).toContain('(longer than --update-grace)');
  });

  it('no channel set (RetrievedUpdates=False NoChannel, 4.17.0-ec.0) is said, not raised', () => {
    const findings = judgeClusterVersion(
      version('clusterversion-4.17.0-ec.0-updating-nochannel.json'),
      rules('2024-06-01T00:00:00Z', { updateGrace: 10 * 365 * 86400 }),
    );
    expect(findings).toContainEqual({ state: State.OK, text: 'no update channel set' });
  });

  it('--operator NAME judges that one and not the version; an unknown name is UNKNOWN with the names listed; an unknown --ignore is reported', () => {
    const ops = operators('clusteroperators-4.6.26-aro-healthy.json');
    const one = evaluateOperators(ops, undefined, rules('2021-11-08T00:00:00Z', { operator: 'aro' }));
    expect(one.state).toBe(State.OK);
    expect(one.metrics?.[0]).toMatchObject({ label: 'operators', value: 1 });
    expect(one.summary).toMatch(/^aro: available, not degraded$/);
    const missing = evaluateOperators(ops, undefined, rules('2021-11-08T00:00:00Z', { operator: 'etcd' }));
    expect(missing).toEqual({
      state: State.UNKNOWN,
      summary:
        'no ClusterOperator etcd among the 6 the cluster lists (aro, authentication, cloud-credential, cluster-autoscaler, config-operator, console); check --operator',
    });
    expect(evaluateOperators(ops, version('clusterversion-4.14.1-healthy.json'), rules('2021-11-08T00:00:00Z', { ignore: ['insights'] })).summary).toContain(
      '--ignore insights: no such operator',
    );
  });

  it('--output json lists every operator, by name (Zabbix dependent items); discovery names each', () => {
    const ops = operators('clusteroperators-4.14.1-healthy.json');
    const doc = JSON.parse(
      renderJson('OPERATORS', evaluateOperators(ops, version('clusterversion-4.14.1-healthy.json'), rules('2023-11-03T18:30:00Z', { listAll: true }))),
    ) as { items: Array<{ name: string; state: string }> };
    expect(doc.items.filter((i) => i.name !== 'clusterversion').map((i) => i.name)).toEqual(ops.map((o) => o.name));
    expect(doc.items.find((i) => i.name === 'etcd')?.state).toBe('OK');
    expect(JSON.parse(operatorDiscovery(ops))).toContainEqual({ '{#OPERATOR}': 'etcd' });
  });
});

describe('condenseMessage and describeSince', () => {
  it("cuts at a word boundary, elides long bracketed dumps, keeps each line's start", () => {
    expect(condenseMessage('one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen', 60)).toBe(
      'one two three four five six seven eight nine ten eleven…',
    );
    expect(condenseMessage(`members not fault tolerant: [${'{Member:x Healthy:true} '.repeat(10)}]; check etcd`, 200)).toBe(
      'members not fault tolerant: […], check etcd'.replace(', ', '; '),
    );
    expect(condenseMessage('A: first\nA: first\nB: second', 200)).toBe('A: first; B: second');
  });

  it('elides exactly the groups a bracket-by-bracket scan finds, nested, unbalanced or mixed', () => {
    // The reference: from each opening bracket, scan on (either kind counts) to where the depth
    // returns to 0, within 20,000 characters.
    const reference = (text: string) => {
      let out = '';
      for (let i = 0; i < text.length;) {
        let end = -1;
        if (text[i] === '[' || text[i] === '{')
          for (let j = i, depth = 0; j < text.length && j - i < 20_000; j++) {
            depth += text[j] === '[' || text[j] === '{' ? 1 : text[j] === ']' || text[j] === '}' ? -1 : 0;
            if (depth === 0) {
              end = j;
              break;
            }
          }
        if (end !== -1 && end - i + 1 > 60) {
          out += text[i] === '[' ? '[…]' : '{…}';
          i = end + 1;
        } else out += text[i++];
      }
      return out;
    };
    fc.assert(
      fc.property(fc.array(fc.constantFrom('[', ']', '{', '}', 'a', ' ', 'b'.repeat(30)), { maxLength: 60 }), (parts) => {
        const text = parts.join('');
        expect(condenseMessage(text, 100_000)).toBe(condenseMessage(reference(text), 100_000));
      }),
      { numRuns: 300 },
    );
    // A server's 64 KiB of open brackets: nothing to elide, and one linear pass to find that out.
    expect(condenseMessage('['.repeat(65_536), 100)).toMatch(/^\[{50,100}…$/);
  });

  it("a message with line breaks, controls and the run's token echoed stays one clean line without the secret", () => {
    runRedactor.add('abcdefghijklmnopqrstuvwxyz0123456789');
    const out = condenseMessage('failed\r\n\u001b[31mAuthorization: Bearer abcdefghijklmnopqrstuvwxyz0123456789\u2028next', 200);
    expect(out).not.toMatch(/[\u0000-\u001f\u2028]/);
    expect(out).not.toContain('abcdefghijklmnopqrstuvwxyz0123456789');
  });

  it('age and timestamp; a future or missing time gives no age', () => {
    expect(describeSince('2026-11-23T10:00:00Z', Date.parse('2026-11-23T12:00:00Z'))).toBe(' for 2h (since 2026-11-23T10:00:00Z)');
    expect(describeSince(undefined, 0)).toBe('');
    expect(describeSince('not a time', 0)).toBe('');
  });
});
