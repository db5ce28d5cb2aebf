import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultKubeconfigPath, loadKubeconfig } from '../../../lib/cluster/kubeconfig';
import { parseYaml } from '../../../lib/cluster/kubeconfig-yaml';

const DIR = join(__dirname, '../../fixtures/cluster/kubeconfig');
const file = (name: string) => join(DIR, name);

describe('parseYaml (kubeconfig subset)', () => {
  it('reads the files kubectl/oc write exactly as JSON would say', () => {
    const doc = parseYaml(readFileSync(file('oc-login.yaml'), 'utf8')) as Record<string, unknown>;
    expect(doc.kind).toBe('Config');
    expect(doc.preferences).toEqual({});
    expect((doc.clusters as unknown[]).length).toBe(2);
    expect(doc.clusters).toEqual([
      { cluster: { 'certificate-authority-data': expect.stringMatching(/^LS0t/), server: 'https://api.prod-eu1.example.com:6443' }, name: 'api-prod-eu1-example-com:6443' },
      { cluster: { 'insecure-skip-tls-verify': true, server: 'https://api.lab.example.com:6443' }, name: 'api-lab-example-com:6443' },
    ]);
  });

  it('reads indented lists, quotes, comments and flow mappings', () => {
    const doc = parseYaml(readFileSync(file('hand-written.yaml'), 'utf8')) as Record<string, unknown>;
    expect(doc['current-context']).toBe('monitoring@prod');
    expect(doc.apiVersion).toBe('v1');
    expect(doc.clusters).toEqual([
      { name: 'prod', cluster: { server: 'https://ocp.prod.example.com:8443', 'certificate-authority': 'ca/prod-ca.pem' } },
      { name: 'lab', cluster: { server: 'https://api.lab.example.com:6443', 'insecure-skip-tls-verify': true } },
    ]);
    expect(doc.contexts).toEqual([
      { name: 'monitoring@prod', context: { cluster: 'prod', user: 'monitoring' } },
      { name: 'lab', context: { cluster: 'lab', user: 'monitoring' } },
    ]);
  });

  it('reads exec sections with argument lists and nulls', () => {
    const doc = parseYaml(readFileSync(file('eks-exec.yaml'), 'utf8')) as { users: Array<{ user: { exec: Record<string, unknown> } }> };
    expect(doc.users[0].user.exec).toEqual({
      apiVersion: 'client.authentication.k8s.io/v1beta1',
      args: ['--region', 'eu-west-1', 'eks', 'get-token', '--cluster-name', 'prod', '--output', 'json'],
      command: 'aws',
      env: null,
      interactiveMode: 'IfAvailable',
      provideClusterInfo: false,
    });
  });

  it('reads JSON kubeconfigs', () => {
    expect(parseYaml(readFileSync(file('kubeconfig.json'), 'utf8'))).toEqual(JSON.parse(readFileSync(file('kubeconfig.json'), 'utf8')));
  });

  it.each([
    ['scalars', 'a: 1\nb: -2\nc: 1.5\nd: true\ne: False\nf: ~\ng: null\nh:\ni: "x # not a comment"\nj: it\'s\nk: \'it\'\'s\'', { a: 1, b: -2, c: 1.5, d: true, e: false, f: null, g: null, h: null, i: 'x # not a comment', j: "it's", k: "it's" }],
    ['double-quoted escapes', 'a: "tab\\there \\"q\\" \\u00e9 \\\\"', { a: 'tab\there "q" é \\' }],
    ['keys with colons and a URL value', 'user: system:serviceaccount:ns:sa/api:6443\nserver: https://h:6443', { user: 'system:serviceaccount:ns:sa/api:6443', server: 'https://h:6443' }],
    ['nested sequences', 'a:\n- - x\n  - y\n- z', { a: [['x', 'y'], 'z'] }],
    ['a dash alone', 'a:\n-\n  b: 1\n- c', { a: [{ b: 1 }, 'c'] }],
    ['flow lists', 'a: [x, "y, z", []]\nb: {}', { a: ['x', 'y, z', []], b: {} }],
    ['a literal block', 'a: |\n  line 1\n  line 2\nb: 2', { a: 'line 1\nline 2\n', b: 2 }],
    ['a folded block, stripped', 'a: >-\n  one\n  two\nb: 2', { a: 'one two', b: 2 }],
    ['document markers and CRLF', '---\r\na: 1\r\n...\r\n', { a: 1 }],
  ])('%s', (_, text, expected) => {
    expect(parseYaml(text)).toEqual(expected);
  });

  it.each([
    ['an anchor', 'a: &x 1', /anchors, aliases and tags/],
    ['a tab in the indentation', 'a:\n\tb: 1', /tab/],
    ['a bad indentation', 'a: 1\n   b: 2', /unexpected indentation/],
    ['an unterminated quote', 'a: "open', /unterminated/],
    ['a multi-line plain value', 'a: b\nc', /expected "key: value"/],
  ])('refuses %s with the line', (_, text, message) => {
    expect(() => parseYaml(text)).toThrow(message);
  });
});

describe('loadKubeconfig', () => {
  it('takes server, token and CA data of the current context (oc login)', () => {
    const kc = loadKubeconfig(file('oc-login.yaml'));
    expect(kc).toMatchObject({ server: 'https://api.prod-eu1.example.com:6443', insecure: false, context: 'openshift-infra/api-prod-eu1-example-com:6443/system:serviceaccount:openshift-infra:monitoring' });
    expect(kc.token).toMatch(/^eyJhbGciOiJSUzI1NiIs/);
    expect(kc.caPem).toContain('-----BEGIN CERTIFICATE-----');
  });

  it('resolves certificate-authority and tokenFile against the kubeconfig\'s folder', () => {
    const kc = loadKubeconfig(file('hand-written.yaml'));
    expect(kc).toMatchObject({ server: 'https://ocp.prod.example.com:8443', caFile: join(DIR, 'ca/prod-ca.pem'), tokenFile: join(DIR, 'secrets/monitoring.token') });
    expect(kc.token).toBeUndefined();
  });

  it('reads the insecure flag from JSON kubeconfigs', () => {
    expect(loadKubeconfig(file('kubeconfig.json'))).toMatchObject({ insecure: true, token: 'sha256~SlNPTi1rdWJlY29uZmlnLXRva2VuLWZpeHR1cmU' });
  });

  it('names authentication it cannot use', () => {
    expect(loadKubeconfig(file('eks-exec.yaml')).unsupportedAuth).toMatch(/an exec credential plugin/);
    expect(loadKubeconfig(file('client-cert.yaml')).unsupportedAuth).toMatch(/a client certificate/);
  });

  it('fails clearly on a missing file, a missing context or a missing server', () => {
    expect(() => loadKubeconfig('/nonexistent/kubeconfig')).toThrow(/^cannot read kubeconfig \/nonexistent\/kubeconfig \(ENOENT\); check the path given to --kubeconfig/);
    const dir = join(__dirname, '../../fixtures/cluster');
    expect(() => loadKubeconfig(join(dir, 'console-login.html'))).toThrow(/is not valid YAML|holds no configuration mapping/);
  });

  it('defaults to the first $KUBECONFIG entry, else ~/.kube/config', () => {
    expect(defaultKubeconfigPath({ KUBECONFIG: '/a/one:/b/two', HOME: '/home/n' })).toBe('/a/one');
    expect(defaultKubeconfigPath({ HOME: '/home/nagios' })).toBe('/home/nagios/.kube/config');
  });
});
