// check_vcd_backends: what Cloud Director stands on. The vCenter servers it knows (connected,
// enabled, their clusters' health, their version) and their datastores (used and provisioned in
// percent of capacity). System account only.
import { blankControlCharacters } from '../../lib/plugin/control-characters';
import { CheckError } from '../../lib/plugin/errors';
import type { PluginDefinition } from '../../lib/plugin/run';
import { State } from '../../lib/plugin/state';
import { principal } from '../../lib/vcd/api/login';
import { vcdFrameCheck } from '../vcd-family';
import { readBackends } from '../../lib/vcd/backends/backend-read';
import { judgeBackends } from '../../lib/vcd/backends/backend-report';
import { configureBackends } from './config';
import { BACKENDS_OPTIONS } from './options';

const same = (a: string, b: string) => a === b || a.toLowerCase() === b.toLowerCase();

export const plugin: PluginDefinition<typeof BACKENDS_OPTIONS> = vcdFrameCheck({
  name: 'VCD_BACKENDS',
  command: 'check_vcd_backends',
  description:
    "Checks what VMware Cloud Director stands on: each vCenter server it knows (not connected is CRITICAL, cluster health YELLOW WARNING and RED CRITICAL, a disabled one named) and each datastore's used and provisioned storage in percent of its capacity. Needs a System account.",
  usage:
    'check_vcd_backends -u URL -U USER -o System --password-file PATH [--vcenter NAME] [--datastore NAME] [--storage-warning RANGE] [--storage-critical RANGE] [--overcommit-warning RANGE] [--overcommit-critical RANGE] [--disabled-state ok|warning|critical] [--discovery vcenters|datastores] [options]',
  options: BACKENDS_OPTIONS,
  examples: [
    'check_vcd_backends -u https://vcd.example.com -U provider-monitor -o System --password-file /etc/nagios/vcd-system.pw',
    'check_vcd_backends -u https://vcd.example.com -U provider-monitor -o System --password-file PW --vcenter vc-01 --overcommit-warning 150 --overcommit-critical 200',
    'check_vcd_backends -u https://vcd.example.com -U provider-monitor -o System --password-file PW --discovery datastores',
  ],
  notes: [
    "Reads the CloudAPI list GET /cloudapi/1.0.0/virtualCenters (API 36.0 and later: isConnected, listenerState, clusterHealthStatus, isEnabled, vcVersion); where the server has none, the query service's virtualCenter records (listenerState, isEnabled, vcVersion; no cluster health). A vCenter with isConnected false or a listenerState other than CONNECTED is CRITICAL.",
    "Datastores: the query service's datastore records (storageMB capacity, storageUsedMB used, provisionedStorageMB else requestedStorageMB provisioned, isEnabled, vcName, datastoreType); deleted ones are left out. A figure the record does not send is unknown (U in perfdata), never the whole check.",
    'NSX managers are not judged: neither the admin extension nsxtManagers list nor the CloudAPI documents a state field for them.',
    'Rights: a System account whose role may view vCenter servers and datastores (System Administrator, or a provider role with vCenter: View).',
    'Perfdata: <vcenter>__connected (0/1) per vCenter server; <vcenter>__<datastore>__used_pct and __provisioned_pct per datastore. Names become lower-case letters, digits and _, unique across the output; at most 1,000 values, the cut said in the long output.',
  ],
  configure: configureBackends,
  systemOnly: { what: 'vCenter servers and datastores are' },
  async read(frame, config, context) {
    const { session } = frame;
    const wantVCenters = config.discovery === 'vcenters' || (config.discovery === undefined && config.datastore === undefined);
    const wantDatastores = config.discovery === 'datastores' || (config.discovery === undefined && !config.noDatastores);
    const reading = await readBackends(session, { vcenters: wantVCenters, datastores: wantDatastores });
    context.notes.add(`read from the ${reading.source}`);
    frame.note();
    const where = `${principal(session.creds)} at ${config.base.origin}`;
    let { vcenters, datastores } = reading;
    if (config.vcenter !== undefined) {
      const asked = config.vcenter;
      const exact = vcenters.filter((v) => v.name === asked || v.id === asked.toLowerCase());
      vcenters = exact.length > 0 ? exact : vcenters.filter((v) => same(v.name, asked));
      const vcName = vcenters.find((v) => v.id === asked.toLowerCase())?.name ?? asked;
      const held = datastores.filter((d) => d.vc === vcName);
      datastores = held.length > 0 ? held : datastores.filter((d) => same(d.vc, asked));
      if (vcenters.length === 0 && datastores.length === 0)
        throw new CheckError(`no vCenter server named ${JSON.stringify(asked.slice(0, 120))} is known to the vCD ${where}, check --vcenter`);
    }
    if (config.datastore !== undefined) {
      const asked = config.datastore;
      const exact = datastores.filter((d) => d.name === asked || d.id === asked.toLowerCase());
      datastores = exact.length > 0 ? exact : datastores.filter((d) => same(d.name, asked));
      if (datastores.length === 0)
        throw new CheckError(`no datastore named ${JSON.stringify(asked.slice(0, 120))} is visible to ${where}, check --datastore (and --vcenter)`);
    }
    if (config.discovery === 'vcenters') {
      const lld = vcenters.map((v) => ({ '{#VCENTER.ID}': v.id, '{#VCENTER.NAME}': blankControlCharacters(v.name) }));
      return { state: State.OK, summary: '', raw: `${JSON.stringify(lld)}\n` };
    }
    if (config.discovery === 'datastores') {
      const lld = datastores.map((d) => ({
        '{#DATASTORE.ID}': d.id,
        '{#DATASTORE.NAME}': blankControlCharacters(d.name),
        '{#DATASTORE.VCENTER}': blankControlCharacters(d.vc),
      }));
      return { state: State.OK, summary: '', raw: `${JSON.stringify(lld)}\n` };
    }
    if (vcenters.length === 0 && datastores.length === 0)
      return frame.finish({
        state: State.UNKNOWN,
        summary: `the vCD ${where} lists no vCenter server and no datastore: check that the account may view them (System Administrator)`,
      });
    return frame.finish(judgeBackends(vcenters, datastores, config.thresholds));
  },
});
