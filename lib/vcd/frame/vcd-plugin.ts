// The head every vCD plugin shares: the password in the environment as a secret, how the
// session is kept (said once, for all of them), the HTTP environment note at the end of --help,
// and --last-state for every one but check_vcd and check_vm_fleet. A plugin's definition says
// only what is its own; the straight run most of them are (configure, open the frame, read,
// judge) is plugins/vcd-family.ts.
import { HTTP_ENVIRONMENT_NOTE } from '../../http/options';
import type { OptionSpec } from '../../plugin/options';
import type { PluginDefinition } from '../../plugin/run';
import { keepingLastState, LAST_STATE_OPTION, lastStateFrom, type LastStateOptions } from './last-state';

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
  /**
   * A check that must fail when vCD does, so it has no --last-state: check_vcd, the service the
   * others depend on, and check_vm_fleet, whose VM services the engines hold back only while it fails.
   */
  failsWithVcd?: true;
}

/** A vCD plugin's definition: its own head and run, in the family's head (a dependent's with --last-state, after its own options). */
export function vcdPlugin<const Specs extends readonly OptionSpec[]>(def: VcdPluginHead<Specs>): PluginDefinition<Specs> {
  const { notes = [], sessionNote = VCD_SESSION_NOTE, secretEnv = [], failsWithVcd, ...own } = def;
  const head = { ...own, secretEnv: [VCD_PASSWORD_ENV, ...secretEnv], notes: [...notes, sessionNote, HTTP_ENVIRONMENT_NOTE] };
  if (failsWithVcd) return head;
  return {
    ...head,
    // The plugin's own options are typed without --last-state: it is read here, and its run never sees it.
    options: [...own.options, LAST_STATE_OPTION] as unknown as Specs,
    // Every vCD plugin has --url; TypeScript cannot see it, or --last-state, through the generic `Specs`.
    run: (options, context) => keepingLastState(lastStateFrom(options as LastStateOptions), context, (keeping) => own.run(options, keeping)),
  };
}
