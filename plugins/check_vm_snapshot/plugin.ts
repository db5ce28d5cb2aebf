// check_vm_snapshot: a VM's snapshots (count, age of the oldest, total size), read from its query
// record and, when it lists a snapshot, from its SnapshotSection.
import { hygieneCheckPlugin } from '../../lib/vcd/hygiene/hygiene-check';
import { configureSnapshots, SNAPSHOT_OPTIONS } from '../../lib/vcd/hygiene/hygiene-options';
import { snapshotService } from '../../lib/vcd/hygiene/hygiene-service';

export const plugin = hygieneCheckPlugin(
  {
    name: 'VM_SNAPSHOT',
    command: 'check_vm_snapshot',
    description:
      'Checks the snapshots of a VMware Cloud Director VM, whatever its power state (a powered-off VM\'s snapshots hold storage too): how many, the age of the oldest and their total size. OK "no snapshot" when there is none.',
    usage: '[--age-warning RANGE] [--age-critical RANGE] [--size-warning RANGE] [--size-critical RANGE] [--count-warning RANGE] [--count-critical RANGE]',
    examples: [
      'check_vm_snapshot -u https://vcd.example.com --vm vm-4f2c1a9e-0b7d-4c1e-9a55-2d8e6f1b3c70 -U monitor -o acme --password-file /etc/nagios/vcd.pw',
      'check_vm_snapshot -u https://vcd.example.com --vm db-03 --vapp shop -U monitor -o acme --password-file PW --age-warning 1d --age-critical 3d --size-critical 100GiB',
      'check_vm_snapshot --extra-opts vcd@/etc/nagios/cloudchecks.ini --vm web-01 --count-warning 1 --count-critical 5',
    ],
    notes: [
      'Ranges follow the plugin guidelines: --age-warning 3d alerts above 3 days, @0:1h inside. Ages take s, m, h and d; sizes bytes or KiB, MiB, GiB, TiB (binary) or KB, MB, GB, TB (decimal).',
      'Perfdata: snapshots (count), snapshot_age (s, of the oldest), snapshot_size (B, all snapshots); with no snapshot snapshots=0 snapshot_age=0s snapshot_size=0B.',
    ],
  },
  SNAPSHOT_OPTIONS,
  (options) => {
    const { thresholds, slips } = configureSnapshots(options);
    return { service: snapshotService(thresholds), slips };
  },
);
