import { DEFAULT_MAX_CSRS } from '../../lib/cluster/csr-list';
import { CLUSTER_OPTIONS } from '../../lib/cluster/target';
import { HTTP_OPTIONS } from '../../lib/http/options';
import { defineOptions, type PluginOptions } from '../../lib/plugin/options';

/** The options of check_cluster_certs, in --help order. */
export const CERTS_OPTIONS = defineOptions([
  ...CLUSTER_OPTIONS,
  ...HTTP_OPTIONS,
  {
    long: 'warning',
    short: 'w',
    type: 'string',
    arg: 'DURATION',
    default: '30d',
    description: 'WARNING when a certificate expires in less than DURATION (30d, 400d, 12h).',
  },
  {
    long: 'critical',
    short: 'c',
    type: 'string',
    arg: 'DURATION',
    default: '7d',
    description: 'CRITICAL when a certificate expires in less than DURATION, or has expired.',
  },
  {
    long: 'csr-grace',
    type: 'string',
    arg: 'DURATION',
    default: '1h',
    description:
      'A kubelet CSR (signer kubelet-serving or kube-apiserver-client-kubelet, or legacy-unknown asked for by system:node:<name> or a bootstrap token, as a CSR made before Kubernetes 1.18 or through v1beta1 reads) pending longer than DURATION is WARNING: its node stays NotReady or without a serving certificate until it is approved.',
  },
  { long: 'skip-csrs', type: 'boolean', description: 'Do not read the CertificateSigningRequests (an account that may not list them).' },
  {
    long: 'max-csrs',
    type: 'number',
    arg: 'N',
    default: DEFAULT_MAX_CSRS,
    description: 'UNKNOWN when the server lists more CSRs than this (a broken or hostile server cannot keep the check busy).',
  },
]);

/** check_cluster_certs' options as parsed. */
export type CertsOptions = PluginOptions<typeof CERTS_OPTIONS>;
