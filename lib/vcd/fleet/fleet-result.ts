// What check_vm_fleet makes of one VM: for each of its services the exit code and the very
// text the single check (check_vm_cpu, check_vm_mem, check_vm_disk, check_vm_snapshot,
// check_vm_tools, check_vm_lease) prints for it, so that whatever hands the results on (the
// fleet's own output, a submission to an engine) sends what the single check would have said.
import type { NagiosParts } from '../../plugin/result';
import type { State } from '../../plugin/state';
import { HYGIENE_SERVICES } from '../hygiene/hygiene-service';

/** The services judged from each VM's metrics document: the default of --services. */
export const METRIC_SERVICES = ['cpu', 'mem', 'disk'] as const;
export type MetricService = (typeof METRIC_SERVICES)[number];

/** Every service --services may name, in the order results are given. */
export const FLEET_SERVICES = [...METRIC_SERVICES, ...HYGIENE_SERVICES] as const;
export type FleetService = (typeof FLEET_SERVICES)[number];

/** The object a single check prints with `--output json`. */
export interface JsonResult {
  name: string;
  state: string;
  code: number;
  summary: string;
  items: Array<{ name: string; state: string; text: string }>;
  more?: number;
  metrics: Array<{
    label: string;
    value: number | null;
    uom: string;
    warning: string | null;
    critical: string | null;
    min: number | null;
    max: number | null;
  }>;
}

/** One service of one VM as the single check says it. */
export interface ServiceResult {
  /** The exit code (0-3). */
  code: State;
  /** The whole plugin output: `VM_CPU OK - … | perfdata`, then the long output; ends with a newline. */
  text: string;
  /** The same output in the parts an engine takes (status line, each perfdata item, long output lines), rendered once. */
  parts: NagiosParts;
  /** The `--output json` object of the single check. */
  json: JsonResult;
}

/** One VM of the fleet and its results, one per service --services selects. */
export interface FleetVmResult {
  /** `vm-<guid>`. */
  id: string;
  /** The VM's and its vApp's names as the query service lists them: tenant text, make it inert where it lands. */
  name: string;
  vapp: string;
  /** Its organisation's name, when the listing knows it (a provider account's listing of every organisation). */
  org?: string;
  /** Its power status as the query service lists it (POWERED_ON, POWERED_OFF, ...). */
  status: string;
  /** False when its metrics were not read (the deadline came first, or the connection failed): its services are UNKNOWN saying why. */
  read: boolean;
  /** The selected services' results (the others are absent). */
  services: Partial<Record<FleetService, ServiceResult>>;
}

/** A VM's results of the services selected, in the order of FLEET_SERVICES. */
export function servicesOf(vm: Pick<FleetVmResult, 'services'>): Array<[FleetService, ServiceResult]> {
  return FLEET_SERVICES.flatMap((s): Array<[FleetService, ServiceResult]> => {
    const result = vm.services[s];
    return result ? [[s, result]] : [];
  });
}
