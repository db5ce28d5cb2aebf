// What a check hands an engine as a passive result: rendered once by the check, as data (the
// status line, each perfdata item, the long output), so that each engine's writer puts the
// parts where that engine wants them without taking a text apart again.
import type { State } from '../plugin/state';

/** One check result for one engine service. */
export interface PassiveResult {
  /** The engine's host, e.g. the VM id (vm-<guid>) the discovery named it. */
  host: string;
  service: string;
  state: State;
  /** The status line without perfdata. */
  output: string;
  /** Each perfdata item as the plugin prints it (`label=value[UOM];warn;crit;min;max`). */
  perfdata: readonly string[];
  /** The long output, one line each. */
  longOutput: readonly string[];
}
