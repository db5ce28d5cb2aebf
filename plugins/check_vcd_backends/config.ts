import { UsageError } from '../../lib/plugin/errors';
import { ScalarContext } from '../../lib/plugin/scalar-context';
import { State } from '../../lib/plugin/state';
import type { BackendThresholds } from '../../lib/vcd/backends/backend-report';
import { baseUrl } from '../../lib/vcd/vm/vm-config';
import type { BackendsOptions } from './options';

/** Everything check_vcd_backends' options say, validated before the first request. */
export interface BackendsConfig {
  base: URL;
  vcenter?: string;
  datastore?: string;
  noDatastores: boolean;
  thresholds: BackendThresholds;
  discovery?: 'vcenters' | 'datastores';
}

const STATES: Record<string, State> = { ok: State.OK, warning: State.WARNING, critical: State.CRITICAL };

function nameOption(value: string | undefined, option: string): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new UsageError(`${option} is empty: give the name as vCD shows it`);
  return value;
}

/** The options of check_vcd_backends as its config. */
export function configureBackends(options: BackendsOptions): BackendsConfig {
  const vcenter = nameOption(options.vcenter, '--vcenter');
  const datastore = nameOption(options.datastore, '--datastore');
  if (datastore !== undefined && options['no-datastores']) throw new UsageError('--datastore and --no-datastores contradict each other: give one');
  return {
    base: baseUrl(options.url),
    ...(vcenter === undefined ? {} : { vcenter }),
    ...(datastore === undefined ? {} : { datastore }),
    noDatastores: options['no-datastores'],
    thresholds: {
      storage: ScalarContext.fromOptions({ warning: options['storage-warning'], critical: options['storage-critical'] }, undefined, {
        warning: '--storage-warning',
        critical: '--storage-critical',
      }),
      overcommit: ScalarContext.fromOptions({ warning: options['overcommit-warning'], critical: options['overcommit-critical'] }, undefined, {
        warning: '--overcommit-warning',
        critical: '--overcommit-critical',
      }),
      disabledState: STATES[options['disabled-state']] ?? State.OK,
    },
    ...(options.discovery === undefined ? {} : { discovery: options.discovery as 'vcenters' | 'datastores' }),
  };
}
