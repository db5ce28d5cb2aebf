import type { RunContext } from '../plugin/context';
import { CheckError } from '../plugin/errors';
import type { PassiveResult } from './passive-result';
import { ICINGA_PERMISSIONS, submitToIcinga } from './icinga2';
import { submitToNagios } from './nagios';
import type { SubmitConfig } from './options';
import { ResultBatches, type MissingHost } from './batches';
import { sendSpooledValue, SpooledValue } from './zabbix';

/** What reached the engine. */
export interface SubmitOutcome {
  /** The engine as the status line names it. */
  engine: string;
  submitted: number;
  /** Hosts the engine has no objects for (new VMs not yet discovered), each once with its services; the first MAX_MISSING_NAMED of them. */
  missing: MissingHost[];
  /** How many results the engine had no object for, named or not. */
  missingCount: number;
  /** How many hosts they belong to. */
  missingHosts: number;
}

const ENGINE_NAMES = { icinga2: 'Icinga 2', nagios: 'Nagios', zabbix: 'Zabbix' } as const;

/** Results per batch: one request each to Icinga 2 (four at once), a few pipe writes to Nagios. */
export const BATCH_RESULTS = { icinga2: 64, nagios: 256 } as const;

/**
 * A fleet's results handed to an engine as they come: icinga2 and nagios take each VM's
 * results in batches while the fleet is read; zabbix takes one document (its dependent items
 * take it apart), written to `document` as it is made and sent whole at `finish`.
 */
export interface Submission {
  engine: string;
  /** One VM's results, one per engine service (waits while a full batch waits for the one under way). */
  add(services: readonly PassiveResult[]): Promise<void>;
  /** zabbix: the writer of the document, spooled until `finish`. */
  document?: SpooledValue;
  /** Results taken so far. */
  readonly submitted: number;
  /**
   * Sends what is left (zabbix: the document) and says what reached the engine. Failures that
   * leave the engine without results (refused credentials, no reader, no such item) are
   * CheckErrors naming cause and fix.
   */
  finish(): Promise<SubmitOutcome>;
  /** Removes what was spooled (always, once the run no longer needs it). */
  close(): void;
}

/** Opens the hand-over to the engine of `config`, bounded by the run's timeout; nothing is sent before the first batch. */
export function openSubmission(config: NonNullable<SubmitConfig>, context: RunContext): Submission {
  const engine = ENGINE_NAMES[config.mode];
  const phase = () => context.setPhase(`submitting results to ${engine}`);
  if (config.mode === 'zabbix') return zabbixSubmission(config, context, engine);
  const send =
    config.mode === 'icinga2'
      ? (batch: readonly PassiveResult[]) => submitToIcinga(batch, config.icinga, { signal: context.signal, trace: (line) => context.log(3, line) })
      : async (batch: readonly PassiveResult[]) => ({
          submitted: await submitToNagios(batch, config.commandFile, { deadline: context.deadline, signal: context.signal }),
          missing: [],
        });
  const batches = new ResultBatches(send, BATCH_RESULTS[config.mode]);
  return {
    engine,
    add: (services) => batches.add(services),
    get submitted() {
      return batches.submitted;
    },
    async finish() {
      phase();
      const outcome = await batches.finish();
      if (config.mode === 'icinga2' && outcome.submitted === 0 && outcome.missingCount > 0) {
        throw new CheckError(
          `Icinga 2 has none of the ${outcome.missingCount} VM services (first ${outcome.missing[0].host}!${outcome.missing[0].services[0]}), or user ${config.icinga.user} may not see them or submit results to them (Icinga answers both alike); create the VM hosts with --discovery --discovery-format icinga2 and the passive services of contrib/icinga2/vm-fleet.conf, and give the ApiUser permissions = ${ICINGA_PERMISSIONS}`,
        );
      }
      return { engine, ...outcome };
    },
    close: () => undefined,
  };
}

/** --submit zabbix: the document spooled as the fleet is read, then sent as the trapper item's one value. */
function zabbixSubmission(config: Extract<NonNullable<SubmitConfig>, { mode: 'zabbix' }>, context: RunContext, engine: string): Submission {
  const document = new SpooledValue();
  let services = 0;
  let submitted = 0;
  return {
    engine,
    document,
    add: (results) => {
      services += results.length;
      return Promise.resolve();
    },
    get submitted() {
      return submitted;
    },
    async finish() {
      context.setPhase(`submitting results to ${engine}`);
      const value = { host: config.host, key: config.key, clock: Math.floor(Date.now() / 1000) };
      const report = await sendSpooledValue(value, document, config.zabbix, { signal: context.signal });
      if (report.processed < 1) {
        throw new CheckError(
          `Zabbix server ${config.zabbix.host}:${config.zabbix.port} did not take the value for host ${JSON.stringify(config.host)}, key ${config.key} (processed 0, failed ${report.failed}); link the template "cloudchecks Cloud Director VM fleet trapper" to that host (its technical name, enabled, monitored by this server or proxy) and list this machine in the item's allowed hosts if set`,
        );
      }
      // One document carries every result; the dependent items take them apart.
      submitted = services;
      return { engine, submitted, missing: [], missingCount: 0, missingHosts: 0 };
    },
    close: () => document.remove(),
  };
}
