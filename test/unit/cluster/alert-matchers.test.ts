import { describe, expect, it } from 'vitest';
import { matches, parseMatcher } from '../../../lib/cluster/alert-matchers';

const labels = { alertname: 'KubePodCrashLooping', namespace: 'openshift-ingress', severity: 'warning' };

describe('parseMatcher and matches: Alertmanager matcher syntax', () => {
  it.each([
    ['alertname="KubePodCrashLooping"', true],
    ['alertname=KubePodCrashLooping', true],
    ['alertname!="KubePodCrashLooping"', false],
    ['alertname=~"Kube.*"', true],
    // Anchored as Alertmanager anchors: "Kube" alone does not match the whole value.
    ['alertname=~"Kube"', false],
    ['namespace!~"openshift-.*"', false],
    ['namespace=~"openshift-ingress|kube-system"', true],
    ['pod=""', true],
    ['pod!=""', false],
    ['pod=~".+"', false],
    ['  severity = "warning"  ', true],
  ])('%s → %s', (text, expected) => {
    expect(matches(parseMatcher(text, '--include'), labels)).toBe(expected);
  });

  it('quoted values take \\" and \\\\ escapes', () => {
    expect(matches(parseMatcher('summary="say \\"hi\\" \\\\o/"', '--include'), { summary: 'say "hi" \\o/' })).toBe(true);
  });

  it.each([
    ['alertname', /expected a label matcher/],
    ['=x', /expected a label matcher/],
    ['my-label="x"', /"my-label" is not a label name/],
    ['a="x', /does not end with "/],
    ['a=x"y', /must be quoted whole/],
    ['a=~"(unclosed"', /invalid --exclude a=~/],
    ['a=~"(x)\\1"', /backreferences or lookaround/],
  ])('refuses %s', (text, message) => {
    expect(() => parseMatcher(text, '--exclude')).toThrow(message);
  });
});

describe('regex escapes survive quoting', () => {
  it('"\\d+" keeps its backslash', () => {
    expect(matches(parseMatcher('pod=~"router-\\d+"', '--include'), { pod: 'router-42' })).toBe(true);
  });
});
