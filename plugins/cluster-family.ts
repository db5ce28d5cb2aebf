// The skeleton of the cluster plugins: what every check of a cluster API says the same way
// (how to reach the cluster in its usage line, the token in the environment as a secret, the
// credential, CA and HTTP environment notes of --help) and the straight run most of them are:
// configure, read the cluster once, judge. A plugin's definition says only what is its own.
import type { RunContext } from '../lib/plugin/context';
import type { OptionSpec, PluginOptions } from '../lib/plugin/options';
import type { Result } from '../lib/plugin/result';
import type { PluginDefinition } from '../lib/plugin/run';
import { HTTP_ENVIRONMENT_NOTE, maxBytesFrom, type HttpOptions } from '../lib/http/options';
import type { ClusterTarget, GetOptions } from '../lib/cluster/client';
import { CLUSTER_CA_NOTE, CLUSTER_CREDENTIALS_NOTE, readCluster, TOKEN_ENV } from '../lib/cluster/target';

/** How every cluster plugin is told where the cluster is, first on its usage line. */
const CLUSTER_USAGE = '(--url URL | -H HOST [-p PORT] | --kubeconfig [PATH]) [--token-file PATH]';

/** What a cluster plugin says of itself; the family adds the rest of its head. */
export interface ClusterPluginHead<Specs extends readonly OptionSpec[]> extends Omit<PluginDefinition<Specs>, 'usage' | 'notes' | 'secretEnv' | 'run'> {
  /** The usage line after the connection options, e.g. `[-w RANGE] [-c RANGE] [options]`. */
  usage: string;
  /** Its own notes, before the connection's (what the account needs, how it judges). */
  notes?: readonly string[];
  /** Notes on the other systems it connects to, after the cluster's connection notes. */
  otherConnectionNotes?: readonly string[];
  /** Environment variables holding secrets besides the cluster token. */
  secretEnv?: readonly string[];
}

/** A cluster plugin that reads the cluster once and judges what it read. */
export interface ClusterCheck<Specs extends readonly OptionSpec[], Config extends { target: ClusterTarget }, Reading> extends ClusterPluginHead<Specs> {
  /** The options as the plugin's typed config, validated before the first request. */
  configure(options: PluginOptions<Specs>, context: RunContext): Promise<Config>;
  /** What the read is doing, the phase a timeout names ("<reading> from <origin>"). */
  reading: string;
  /** The read, with the target (renewed once on 401 when its credential can be). */
  read(target: ClusterTarget, config: Config): Promise<Reading>;
  /** The judge: what was read, under the config, as the result. */
  judge(reading: Reading, config: Config): Result;
}

/** A cluster plugin's definition: its own head and run, in the family's head. */
export function clusterPlugin<const Specs extends readonly OptionSpec[]>(
  def: ClusterPluginHead<Specs> & Pick<PluginDefinition<Specs>, 'run'>,
): PluginDefinition<Specs> {
  const { usage, notes = [], otherConnectionNotes = [], secretEnv = [], ...own } = def;
  return {
    ...own,
    usage: `${def.command} ${CLUSTER_USAGE} ${usage}`,
    secretEnv: [TOKEN_ENV, ...secretEnv],
    notes: [...notes, CLUSTER_CREDENTIALS_NOTE, CLUSTER_CA_NOTE, ...otherConnectionNotes, HTTP_ENVIRONMENT_NOTE],
  };
}

/** A cluster check's definition: configure, read the cluster, judge. */
export function clusterCheck<const Specs extends readonly OptionSpec[], Config extends { target: ClusterTarget }, Reading>(
  def: ClusterCheck<Specs, Config, Reading>,
): PluginDefinition<Specs> {
  const { configure, reading, read, judge, ...head } = def;
  return clusterPlugin({
    ...head,
    async run(options, context) {
      const config = await configure(options, context);
      return judge(await readCluster(config.target, context, reading, (target) => read(target, config)), config);
    },
  });
}

/** What every read of a cluster plugin is bounded and traced by: --max-bytes, the run's signal (-t), the -vvv trace. */
export function clusterGetOptions(options: Pick<HttpOptions, 'max-bytes'>, context: Pick<RunContext, 'signal' | 'log'>): GetOptions {
  return { maxBytes: maxBytesFrom(options), signal: context.signal, trace: (l: string) => context.log(3, l) };
}
