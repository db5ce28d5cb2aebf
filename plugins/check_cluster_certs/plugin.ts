// check_cluster_certs: time left on the API server's certificate chain and the client
// certificate, and kubelet CSRs that wait for approval.
import { probeCertificates } from '../../lib/cluster/certs-probe';
import { evaluateCertificates } from '../../lib/cluster/certs-report';
import { clusterCheck } from '../cluster-family';
import { configureCerts } from './config';
import { CERTS_OPTIONS } from './options';

/** check_cluster_certs' definition. */
export const plugin = clusterCheck({
  name: 'CERTS',
  command: 'check_cluster_certs',
  description:
    'Checks the time left on the certificates of a Kubernetes/OpenShift API server: the serving certificate and every CA certificate the server sends (read from the TLS handshake), the client certificate the check authenticates with, and CertificateSigningRequests of kubelets that wait for approval longer than --csr-grace. The status line names each certificate by its subject CN.',
  usage: '[-w DURATION] [-c DURATION] [--csr-grace DURATION] [options]',
  options: CERTS_OPTIONS,
  examples: [
    'check_cluster_certs --url https://api.cluster.example.com:6443 --token-file /etc/nagios/cluster.token --ca-file /etc/nagios/cluster-ca.pem',
    'check_cluster_certs --kubeconfig /etc/nagios/kubeconfig -w 60d -c 14d --csr-grace 30m',
    'check_cluster_certs -H api.cluster.example.com --token-file /etc/nagios/cluster.token --skip-csrs -w 400d',
  ],
  notes: [
    'The account needs list on certificatesigningrequests.certificates.k8s.io (cluster-reader on OpenShift; a ClusterRole of its own on Kubernetes: docs/tokens.md), or --skip-csrs.',
    "Trust before dates: the chain is read on a connection that carries no credential, and judged only when its signatures lead to the trusted CA (--ca-file, the kubeconfig's, else the system's) and it names the host; a chain another CA signed is UNKNOWN whatever its dates (unless -k). Then an expired or not yet valid certificate is CRITICAL, not a TLS error, and the CSRs are not read: the token goes only over a connection that verifies in full.",
  ],
  configure: configureCerts,
  reading: 'reading the certificates and CSRs',
  read: (target, config) => probeCertificates(target, config.get),
  judge: (probe, config) => evaluateCertificates(probe, { ...config.rules, now: Date.now() }),
});
