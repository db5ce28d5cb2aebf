import { HTTP_OPTIONS } from '../../lib/http/options';
import { defineOptions, type PluginOptions } from '../../lib/plugin/options';
import { VCD_LOGIN_OPTIONS, VCD_URL_OPTION } from '../../lib/vcd/api/connection-options';

/** The options of check_vcd_backends, in --help order. */
export const BACKENDS_OPTIONS = defineOptions([
  VCD_URL_OPTION,
  {
    long: 'vcenter',
    type: 'string',
    arg: 'NAME|ID',
    description: 'Only this vCenter server (its name as vCD knows it, or its UUID) and its datastores. Default: every vCenter server and datastore.',
  },
  {
    long: 'datastore',
    type: 'string',
    arg: 'NAME|ID',
    description: 'Only the datastore of this name or UUID (with --vcenter, of that vCenter server): its figures alone, the vCenter servers not judged.',
  },
  {
    long: 'no-datastores',
    type: 'boolean',
    description:
      'Judge the vCenter servers alone, the datastore query not made (for one service of the vCenter servers beside one per datastore with --datastore).',
  },
  ...VCD_LOGIN_OPTIONS,
  {
    long: 'storage-warning',
    type: 'string',
    arg: 'RANGE',
    default: '80',
    description: "Warning range of a datastore's used storage (storageUsedMB) in percent of its capacity (storageMB).",
  },
  {
    long: 'storage-critical',
    type: 'string',
    arg: 'RANGE',
    default: '90',
    description: "Critical range of a datastore's used storage in percent of its capacity.",
  },
  {
    long: 'overcommit-warning',
    type: 'string',
    arg: 'RANGE',
    description:
      "Warning range of a datastore's provisioned storage (provisionedStorageMB, else requestedStorageMB) in percent of its capacity; none by default (thin provisioning is a choice), e.g. 150.",
  },
  {
    long: 'overcommit-critical',
    type: 'string',
    arg: 'RANGE',
    description: "Critical range of a datastore's provisioned storage in percent of its capacity; none by default.",
  },
  {
    long: 'disabled-state',
    type: 'string',
    arg: 'STATE',
    default: 'ok',
    choices: ['ok', 'warning', 'critical'],
    description: 'The state of a vCenter server or datastore disabled in vCD: named in the output, OK by default.',
  },
  {
    long: 'discovery',
    type: 'string',
    arg: 'KIND',
    choices: ['vcenters', 'datastores'],
    description:
      'List the vCenter servers ([{"{#VCENTER.ID}":…,"{#VCENTER.NAME}":…}]) or the datastores ([{"{#DATASTORE.ID}":…,"{#DATASTORE.NAME}":…,"{#DATASTORE.VCENTER}":…}]) as Zabbix low-level discovery JSON and exit 0.',
  },
  ...HTTP_OPTIONS,
]);

/** check_vcd_backends' options as parsed. */
export type BackendsOptions = PluginOptions<typeof BACKENDS_OPTIONS>;
