import { describe, expect, it } from 'vitest';
import { parseLabelSelector } from '../../../sim/cluster/label-selector';

// The simulator's labelSelector must match the API server's, or e2e tests of -l prove nothing.
describe('simulator label selector', () => {
  const worker = { 'node-role.kubernetes.io/worker': '', 'topology.kubernetes.io/zone': 'eu-west-1a', 'kubernetes.io/arch': 'amd64' };
  it.each([
    ['node-role.kubernetes.io/worker', true],
    ['!node-role.kubernetes.io/worker', false],
    ['node-role.kubernetes.io/master', false],
    ['topology.kubernetes.io/zone=eu-west-1a', true],
    ['topology.kubernetes.io/zone==eu-west-1b', false],
    ['topology.kubernetes.io/zone!=eu-west-1b', true],
    ['missing!=x', true],
    ['topology.kubernetes.io/zone in (eu-west-1b, eu-west-1a)', true],
    ['topology.kubernetes.io/zone notin (eu-west-1a)', false],
    ['node-role.kubernetes.io/worker,kubernetes.io/arch=amd64', true],
    ['node-role.kubernetes.io/worker,kubernetes.io/arch=arm64', false],
    ['', true],
  ])('%s -> %s', (selector, matches) => {
    expect(parseLabelSelector(selector)(worker)).toBe(matches);
  });

  it('refuses what the API server refuses, with its wording', () => {
    expect(() => parseLabelSelector('a in (b')).toThrow(/^unable to parse requirement: found 'a in \(b'/);
  });
});
