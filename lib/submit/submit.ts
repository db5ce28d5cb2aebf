import type { RunContext } from '../plugin/context';
import { CheckError } from '../plugin/errors';
import type { PassiveResult } from './passive-result';
import { ICINGA_PERMISSIONS, submitToIcinga } from './icinga2';
import { submitToNagios } from './nagios';
import type { SubmitConfig } from './options';
import { sendToZabbix } from './zabbix';

/** What a fleet run hands to the engine: one result per VM service, and its whole JSON document. */
export interface FleetDelivery {
  services: readonly PassiveResult[];
  /** The --output json document (what Zabbix's dependent items read). */
  json(): string;
}

/** What reached the engine. */
export interface SubmitOutcome {
  /** The engine as the status line names it. */
  engine: string;
  submitted: number;
  /** Results the engine has no object for (`host!service`): new VMs not yet discovered. */
  missing: string[];
}

const ENGINE_NAMES = { icinga2: 'Icinga 2', nagios: 'Nagios', zabbix: 'Zabbix' } as const;

/**
 * Hands the results to the engine of `config`, bounded by the run's timeout. Failures that
 * leave the engine without results (refused credentials, no reader, no such item) are
 * CheckErrors naming cause and fix.
 */
export async function submitResults(config: NonNullable<SubmitConfig>, delivery: FleetDelivery, context: RunContext): Promise<SubmitOutcome> {
  const engine = ENGINE_NAMES[config.mode];
  context.setPhase(`submitting results to ${engine}`);
  if (config.mode === 'icinga2') {
    const report = await submitToIcinga(delivery.services, config.icinga, { signal: context.signal, trace: (line) => context.log(3, line) });
    if (report.submitted === 0 && report.missing.length > 0) {
      throw new CheckError(
        `Icinga 2 has none of the ${report.missing.length} VM services (first ${report.missing[0]}), or user ${config.icinga.user} may not see them or submit results to them (Icinga answers both with 404); create the VM hosts with --discovery --discovery-format icinga2 and the passive services of contrib/icinga2/vm-fleet.conf, and give the ApiUser permissions = ${ICINGA_PERMISSIONS}`,
      );
    }
    return { engine, ...report };
  }
  if (config.mode === 'nagios') {
    const submitted = await submitToNagios(delivery.services, config.commandFile, { deadline: context.deadline, signal: context.signal });
    return { engine, submitted, missing: [] };
  }
  const value = { host: config.host, key: config.key, value: delivery.json(), clock: Math.floor(Date.now() / 1000) };
  const report = await sendToZabbix([value], config.zabbix, { signal: context.signal });
  if (report.processed < 1) {
    throw new CheckError(
      `Zabbix server ${config.zabbix.host}:${config.zabbix.port} did not take the value for host ${JSON.stringify(config.host)}, key ${config.key} (processed 0, failed ${report.failed}); link the template "cloudchecks Cloud Director VM fleet trapper" to that host (its technical name, enabled, monitored by this server or proxy) and list this machine in the item's allowed hosts if set`,
    );
  }
  // One document carries every result; the dependent items take them apart.
  return { engine, submitted: delivery.services.length, missing: [] };
}
