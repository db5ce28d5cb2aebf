import type { ClusterTarget, GetOptions } from '../../lib/cluster/client';
import { clusterTargetFrom } from '../../lib/cluster/target';
import { clusterGetOptions } from '../cluster-family';
import type { RunContext } from '../../lib/plugin/context';
import { ScalarContext } from '../../lib/plugin/scalar-context';
import type { ApiServerOptions } from './options';

/** Everything check_apiserver's options say, validated before the first request. */
export interface ApiServerConfig {
  target: ClusterTarget;
  /** -w/-c on each endpoint's time, in seconds. */
  time: ScalarContext;
  get: GetOptions;
}

/** The options of check_apiserver as its config. */
export async function configureApiServer(options: ApiServerOptions, context: RunContext): Promise<ApiServerConfig> {
  const target = await clusterTargetFrom(options, context, context.notes);
  const time = ScalarContext.fromOptions(options);
  const slip = time.slip;
  if (slip) context.notes.add(slip);
  return {
    target,
    time,
    get: clusterGetOptions(options, context),
  };
}
