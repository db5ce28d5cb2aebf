import type { OptionSpec, ParsedOptions } from '../lib/plugin/options';
import type { ApiHandler, Stats } from './server';

/** A simulated API as created from its options. */
export interface SimApi {
  handler: ApiHandler;
  stats: Stats;
  /** Facts printed at start-up for the user (token file, user, scenario...). */
  info: Record<string, string>;
}

/** One half of the simulator (the cluster API or the cloud-director API). */
export interface SimModule {
  /** Short name; its options are prefixed with it (e.g. --cluster-scenario). */
  name: string;
  description: string;
  options: readonly OptionSpec[];
  create(options: ParsedOptions, stateDir: string): SimApi | Promise<SimApi>;
}
