// The skeleton of the vCD checks that read through one frame: configure, open the frame
// (the session, its cache), refuse a tenant account where only a System account sees what the
// check reads, then the check's own reads and result. The head (the password as a secret, the
// session and HTTP notes) is vcdPlugin's, shared with the VM and hygiene families in lib/vcd.
import type { RunContext } from '../lib/plugin/context';
import { CheckError } from '../lib/plugin/errors';
import type { OptionSpec, PluginOptions } from '../lib/plugin/options';
import type { Result } from '../lib/plugin/result';
import type { PluginDefinition } from '../lib/plugin/run';
import type { VcdSessionOptions } from '../lib/vcd/frame/session-options';
import { openVcdFrame, vcdFrameConfigFrom, type VcdFrame } from '../lib/vcd/frame/vcd-frame';
import { vcdPlugin, type VcdPluginHead } from '../lib/vcd/frame/vcd-plugin';

/** What a frame check's config holds for the frame: the vCD and the notes on its own options. */
export interface VcdFrameCheckConfig {
  base: URL;
  /** Notes on the check's own options, said where the session's notes are (see sessionConfigFrom). */
  slips?: readonly (string | undefined)[];
}

/** The options every vCD frame check has, as parsed: the session's and --cache-unusable-state. */
type VcdFrameOptions = VcdSessionOptions & { 'cache-unusable-state': string };

/** A vCD check that reads through one frame: configure, open it, (System only: refuse a tenant), read. */
export interface VcdFrameCheck<Specs extends readonly OptionSpec[], Config extends VcdFrameCheckConfig> extends Omit<VcdPluginHead<Specs>, 'run'> {
  /** The options as the plugin's typed config, validated before the first request. */
  configure(options: PluginOptions<Specs>): Config;
  /** Set when only a System account can run it: what a tenant cannot see, and where to go instead. */
  systemOnly?: { what: string; instead?: string };
  /** The reads and the result, the frame started (its finish is the body's: discovery prints no cache state). */
  read(frame: VcdFrame, config: Config, context: RunContext): Promise<Result>;
}

/** A vCD frame check's definition (see VcdFrameCheck). */
export function vcdFrameCheck<const Specs extends readonly OptionSpec[], Config extends VcdFrameCheckConfig>(
  def: VcdFrameCheck<Specs, Config>,
): PluginDefinition<Specs> {
  const { configure, systemOnly, read, ...head } = def;
  return vcdPlugin({
    ...head,
    async run(options, context) {
      const config = configure(options);
      // Every frame check's options are among them; TypeScript cannot see it through the generic `Specs`.
      const frame = openVcdFrame(vcdFrameConfigFrom(config.base, options as unknown as VcdFrameOptions, context, config.slips), context);
      if (systemOnly && !frame.session.scope.provider) {
        const { org } = frame.session.creds;
        throw new CheckError(
          `${def.command} needs a System account (--org System): ${systemOnly.what} not visible to ${org === '' ? 'a tenant' : `organisation ${org}`}${systemOnly.instead ? `; ${systemOnly.instead}` : ''}`,
        );
      }
      frame.start();
      return read(frame, config, context);
    },
  });
}
