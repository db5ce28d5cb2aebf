// check_nodes' --vcd-* options: where the Cloud Director of the node VMs is and how to log in.
// Declared without a line of lib/vcd, so that a run without them loads none of it (the rest of
// this folder is imported only when they are given).
import { defineOptions } from '../../plugin/options';

/** Failing nodes looked up in vCD by default, and at most (one query names them all). */
export const DEFAULT_VCD_MAX_NODES = 10;
export const MAX_VCD_MAX_NODES = 25;

/** The --vcd-* options, in --help order. */
export const VCD_NODE_OPTIONS = defineOptions([
  {
    long: 'vcd-url',
    type: 'string',
    arg: 'URL',
    description:
      "The Cloud Director API host of the node VMs (as the VM checks' --url). With it, each failing node's line says what vCD knows of its VM: power state, and CPU and memory use of a running one. Never changes the state.",
  },
  { long: 'vcd-user', type: 'string', arg: 'NAME', description: 'vCD user name (without @org), as the VM checks log in.' },
  { long: 'vcd-org', type: 'string', arg: 'ORG', description: "vCD organisation of the user (the node VMs' own, or System for a provider account)." },
  {
    long: 'vcd-password-file',
    type: 'string',
    arg: 'PATH',
    description: 'File holding the vCD password (one line). Without it: password= in --vcd-extra-opts, else $VCD_PASSWORD.',
  },
  {
    long: 'vcd-ca-file',
    type: 'string',
    arg: 'PATH',
    description: "PEM file with the CA of the vCD API host, trusted in addition to the system CAs (the cluster's --ca-file is not).",
  },
  {
    long: 'vcd-extra-opts',
    type: 'string',
    arg: '[SECTION][@FILE]',
    description:
      "Read the vCD connection from an ini section with the VM checks' own keys: url, user, org, password-file (or password), ca-file (section defaults to vcd; file as for --extra-opts). --vcd-* options win.",
  },
  {
    long: 'vcd-vapp',
    type: 'string',
    arg: 'NAME',
    description: "Look for node VMs by name only in this vApp (a VM named by the node's spec.providerID is found anywhere).",
  },
  {
    long: 'vcd-max-nodes',
    type: 'number',
    arg: 'N',
    default: DEFAULT_VCD_MAX_NODES,
    description: `At most N failing nodes get VM facts (1-${MAX_VCD_MAX_NODES}); the rest are said not looked up.`,
  },
]);

/** The --vcd-* options that ask for the VM facts: any of them (without a URL, a usage error says so). */
const ASKING = ['vcd-url', 'vcd-extra-opts', 'vcd-user', 'vcd-org', 'vcd-password-file', 'vcd-ca-file', 'vcd-vapp'] as const;

/** True when a --vcd-* option is given: the vCD side is loaded only then. */
export function wantsVmFacts(options: Partial<Record<(typeof ASKING)[number], string>>): boolean {
  return ASKING.some((o) => options[o] !== undefined);
}
