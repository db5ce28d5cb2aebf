// The head every vCD plugin shares: the password in the environment as a secret, how the
// session is kept (said once, for all of them) and the HTTP environment note at the end of
// --help; and the straight run most of them are: configure, open the frame, read, judge.
// A plugin's definition says only what is its own.
import { HTTP_ENVIRONMENT_NOTE } from '../../http/options';
import type { RunContext } from '../../plugin/context';
import { CheckError } from '../../plugin/errors';
import type { OptionSpec, PluginOptions } from '../../plugin/options';
import type { Result } from '../../plugin/result';
import type { PluginDefinition } from '../../plugin/run';
import { openVcdFrame, vcdFrameConfigFrom, type VcdFrame } from './vcd-frame';
import type { VcdSessionOptions } from './session-options';

/** The environment variable that may hold the vCD password (never printed). */
export const VCD_PASSWORD_ENV = 'VCD_PASSWORD';

/** How every vCD check but check_vcd keeps its session, as --help says it. */
export const VCD_SESSION_NOTE =
  'Sessions are cached (one file per url+user+org, mode 0600) and shared by every vCD check of the account, so that checks do not flood vCD with logins; concurrent checks share one login.';

/** What a vCD plugin says of itself; the family adds the rest of its head. */
export interface VcdPluginHead<Specs extends readonly OptionSpec[]> extends Omit<PluginDefinition<Specs>, 'notes' | 'secretEnv'> {
  /** Its own notes, before the session's and the HTTP environment's. */
  notes?: readonly string[];
  /** How it keeps its session, when not as every vCD check does (VCD_SESSION_NOTE): check_vcd's fresh login. */
  sessionNote?: string;
  /** Environment variables holding secrets besides the vCD password. */
  secretEnv?: readonly string[];
}

/** A vCD plugin's definition: its own head and run, in the family's head. */
export function vcdPlugin<const Specs extends readonly OptionSpec[]>(def: VcdPluginHead<Specs>): PluginDefinition<Specs> {
  const { notes = [], sessionNote = VCD_SESSION_NOTE, secretEnv = [], ...own } = def;
  return { ...own, secretEnv: [VCD_PASSWORD_ENV, ...secretEnv], notes: [...notes, sessionNote, HTTP_ENVIRONMENT_NOTE] };
}

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
