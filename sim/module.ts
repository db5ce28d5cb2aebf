import { pickOptions, type OptionSpec, type OptionsOf, type ParsedOptions } from '../lib/plugin/options';
import type { ApiHandler, Stats } from './server';

/** A simulated API as created from its options. */
export interface SimApi {
  handler: ApiHandler;
  stats: Stats;
  /** Facts printed at start-up for the user (token file, user, scenario...). */
  info: Record<string, string>;
}

/** One half of the simulator (the cluster API or the cloud-director API), as the simulator runs it. */
export interface SimModule {
  /** Short name; its options are prefixed with it (e.g. --cluster-scenario). */
  name: string;
  description: string;
  options: readonly OptionSpec[];
  /** Creates the API from the simulator's options (its own among them). */
  create(options: ParsedOptions, stateDir: string): SimApi | Promise<SimApi>;
}

/** A module as declared: its options with `defineOptions`, so that `create` gets them typed. */
export interface SimModuleDefinition<Specs extends readonly OptionSpec[]> {
  name: string;
  description: string;
  options: Specs;
  create(options: OptionsOf<Specs>, stateDir: string): SimApi | Promise<SimApi>;
}

/** The module, its `create` given its own options typed by their specs. */
export function defineSimModule<const Specs extends readonly OptionSpec[]>(module: SimModuleDefinition<Specs>): SimModule {
  return { ...module, create: (options, stateDir) => module.create(pickOptions(options, module.options), stateDir) };
}
