// The command-line options that point a VM plugin at the simulator's cloud-director API.
import type { Simulator } from '../../sim/simulator';

/** `-u URL --ca-file CA -U monitor -o acme --password-file FILE` for the simulator's vcd module. */
export function simVcdArgs(sim: Simulator): string[] {
  const api = sim.apis.vcd;
  return ['-u', api.httpsUrl, '--ca-file', sim.caFile, '-U', 'monitor', '-o', 'acme', '--password-file', api.info.passwordFile];
}
