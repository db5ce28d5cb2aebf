import { describe, expect, it } from 'vitest';
import type { CertificateLife } from '../../../lib/cluster/certs-probe';
import { evaluateCertificates, type CertRules } from '../../../lib/cluster/certs-report';
import { readPendingCsr } from '../../../lib/cluster/csr-list';
import { State } from '../../../lib/plugin/state';
import { DAYS, TimeLeft } from '../../../lib/plugin/time-left';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const DAY = 86_400_000;
const rules: CertRules = {
  daysLeft: new TimeLeft({ warning: 30 * 86_400, critical: 7 * 86_400 }, DAYS),
  csrGrace: 3600,
  now: NOW,
};
const cert = (name: string, daysLeft: number, role: CertificateLife['role'] = 'serving'): CertificateLife => ({
  role,
  name,
  notAfter: NOW + daysLeft * DAY,
  notBefore: NOW - 300 * DAY,
});

describe('evaluateCertificates', () => {
  it('OK far from expiry, the nearest named, days left graphed with the ranges that judged it', () => {
    const r = evaluateCertificates({ certificates: [cert('api.example.com', 200), cert('kube-apiserver-lb-signer', 3000, 'root')] }, rules);
    expect(r.state).toBe(State.OK);
    expect(r.summary).toBe('nearest expiry: API server certificate api.example.com expires in 200d (2027-06-14)');
    expect(r.metrics).toEqual([{ label: 'cert_days_left', value: 200, warning: rules.daysLeft.warning, critical: rules.daysLeft.critical }]);
  });

  it('the words and the figure cut the time left the same way: 4d 23h 59m is "4d" and 4.99, not 5', () => {
    const r = evaluateCertificates({ certificates: [cert('api.example.com', 5 - 60 / 86400)] }, rules);
    expect(r.summary).toMatch(/^API server certificate api\.example\.com expires in 4d /);
    expect(r.metrics?.[0].value).toBe(4.99);
  });

  it('an intermediate near expiry is named by its CN: WARNING; an expired client certificate CRITICAL', () => {
    const r = evaluateCertificates(
      { certificates: [cert('api.example.com', 200), cert('kube-apiserver-service-network-signer', 12, 'intermediate'), cert('system:admin', -3, 'client')] },
      rules,
    );
    expect(r.state).toBe(State.CRITICAL);
    expect(r.summary).toBe(
      'intermediate CA kube-apiserver-service-network-signer expires in 12d (2026-12-08); client certificate system:admin expired 3d ago (2026-11-23)',
    );
    expect(r.metrics?.[0].value).toBe(-3);
  });

  it('absurd dates: unreadable ones are one UNKNOWN item, year 9999 is just far, not-yet-valid CRITICAL', () => {
    const r = evaluateCertificates(
      {
        certificates: [
          { role: 'serving', name: 'nan', notAfter: NaN, notBefore: NaN },
          { role: 'root', name: 'forever', notAfter: Date.parse('9999-12-31T23:59:59Z'), notBefore: 0 },
          { role: 'intermediate', name: 'future', notAfter: NOW + 900 * DAY, notBefore: NOW + 100 * DAY },
        ],
      },
      rules,
    );
    expect(r.items?.map((i) => [i.name, i.state])).toEqual([
      ['nan', State.UNKNOWN],
      ['future', State.CRITICAL],
      ['forever', State.OK],
    ]);
    expect(r.summary).toContain('API server certificate nan has no readable expiry date');
    expect(r.summary).toContain('intermediate CA future is not valid before 2027-03-06');
  });

  it('kubelet CSRs pending over the grace are WARNING; others and younger ones are listed OK', () => {
    const pending = (name: string, signer: string, ageH: number, username?: string) => ({ name, signer, username, created: NOW - ageH * 3600_000 });
    const r = evaluateCertificates(
      {
        certificates: [cert('api.example.com', 200)],
        csrs: {
          total: 9,
          morePending: 0,
          pending: [
            pending('csr-a', 'kubernetes.io/kubelet-serving', 5, 'system:node:worker-6'),
            pending('csr-b', 'kubernetes.io/kube-apiserver-client', 9, 'alice'),
            pending('csr-c', 'kubernetes.io/kube-apiserver-client-kubelet', 0.2),
          ],
        },
      },
      rules,
    );
    expect(r.state).toBe(State.WARNING);
    expect(r.summary).toContain('1 kubelet CSR pending over 1h: csr-a (kubelet-serving, system:node:worker-6, pending 5h)');
    expect(r.metrics?.find((m) => m.label === 'csr_pending')?.value).toBe(3);
  });
});

describe('readPendingCsr', () => {
  it('decided CSRs are not pending; a pending one keeps name, signer, user and age', () => {
    const approved = {
      metadata: { name: 'csr-1' },
      spec: { signerName: 'kubernetes.io/kubelet-serving' },
      status: { conditions: [{ type: 'Approved', status: 'True' }] },
    };
    expect(readPendingCsr(approved, 'items[0]')).toBeUndefined();
    expect(readPendingCsr({ ...approved, status: { conditions: [{ type: 'Denied' }] } }, 'items[0]')).toBeUndefined();
    expect(
      readPendingCsr({ metadata: { name: 'csr-2', creationTimestamp: '2026-11-26T09:00:00Z' }, spec: { username: 'system:node:w1' } }, 'items[1]'),
    ).toEqual({
      name: 'csr-2',
      signer: 'kubernetes.io/legacy-unknown',
      username: 'system:node:w1',
      created: Date.parse('2026-11-26T09:00:00Z'),
    });
  });

  it('an item without a name, or not an object, is refused naming the field', () => {
    expect(() => readPendingCsr({ metadata: {} }, 'items[4]')).toThrow('items[4].metadata.name is missing');
    expect(() => readPendingCsr([], 'items[5]')).toThrow('items[5] is not an object');
  });
});
