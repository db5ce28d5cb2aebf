// check_vm_lease: the runtime and storage leases of a VM's vApp, the earlier expiry first.
import { hygieneCheckPlugin } from '../../lib/vcd/hygiene/hygiene-check';
import { configureLeases, LEASE_OPTIONS } from '../../lib/vcd/hygiene/hygiene-options';
import { leaseService } from '../../lib/vcd/hygiene/hygiene-service';

export const plugin = hygieneCheckPlugin(
  {
    name: 'VM_LEASE',
    command: 'check_vm_lease',
    description:
      'Checks the leases of a VMware Cloud Director VM\'s vApp, whatever the VM\'s power state: the runtime lease (when vCD stops the vApp) and the storage lease (when it deletes or flags it); the earlier expiry decides. A lease of 0 never expires (OK "no expiry"); an undeployed vApp has no runtime expiry; an expired lease is CRITICAL.',
    usage: '[-w DURATION] [-c DURATION]',
    examples: [
      'check_vm_lease -u https://vcd.example.com --vm vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70 -U monitor -o acme --password-file /etc/nagios/vcd.pw',
      'check_vm_lease -u https://vcd.example.com --vm build-02 --vapp ci -U monitor -o acme --password-file PW -w 14d -c 3d',
    ],
    notes: [
      'Durations take s, m, h and d. Perfdata: lease_runtime and lease_storage, seconds left (negative once expired), for each lease that expires.',
      "The record's autoUndeployDate and autoDeleteDate give the dates; when it lacks one, the vApp's LeaseSettingsSection is read (one request).",
    ],
  },
  LEASE_OPTIONS,
  (options) => {
    const { thresholds, slips } = configureLeases(options);
    return { service: leaseService(thresholds), slips };
  },
);
