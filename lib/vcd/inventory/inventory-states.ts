// Each VM's powered-off state as its discovery wrote it into an Icinga 2 or Nagios inventory
// (--discovery --powered-off-state), read back by the fleet runner so that the results it
// submits for a VM are judged as the engine's own VM host says.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { CheckError } from '../../plugin/errors';
import { parseState, type State } from '../../plugin/state';

/** An inventory of 2,000 VMs is about 2 MB; a file far larger is not one discovery wrote. */
export const MAX_INVENTORY_BYTES = 64 * 1024 * 1024;

/** A VM id as discovery writes it as the host's name. */
const VM_ID = /^vm-[0-9a-f-]{1,64}$/;

/** Icinga 2: `object Host "vm-…" {` … `\tvars.cloudchecks_vm_powered_off_state = "OK"` … `}`. */
const ICINGA_HOST = /^object Host "([^"\\\n]+)" \{$/;
const ICINGA_STATE = /^\s+vars\.cloudchecks_vm_powered_off_state = "([A-Za-z0-3]+)"$/;
/** Nagios: `define host {` … `host_name vm-…` … `_POWERED_OFF_STATE OK` … `}`. */
const NAGIOS_HOST = /^define host \{$/;
const NAGIOS_NAME = /^\s+host_name\s+(\S+)$/;
const NAGIOS_STATE = /^\s+_POWERED_OFF_STATE\s+(\S+)$/;

/** The state each VM host of one inventory text carries; hosts without one are left out. */
export function poweredOffStatesOf(text: string, source: string): Map<string, State> {
  const out = new Map<string, State>();
  let host: string | undefined;
  let state: string | undefined;
  let line = 0;
  const close = () => {
    if (host !== undefined && state !== undefined && VM_ID.test(host)) {
      const parsed = parseState(state);
      if (parsed === undefined)
        throw new CheckError(
          `${source} line ${line}: powered-off state ${JSON.stringify(state)} of ${host} is not OK, WARNING, CRITICAL or UNKNOWN; regenerate it with --discovery`,
        );
      out.set(host, parsed);
    }
    host = state = undefined;
  };
  let inHost = false;
  for (const raw of text.split('\n')) {
    line++;
    const l = raw.replace(/\r$/, '');
    if (!inHost) {
      const icinga = ICINGA_HOST.exec(l);
      if (icinga) [inHost, host] = [true, icinga[1]];
      else if (NAGIOS_HOST.test(l)) inHost = true;
      continue;
    }
    if (l === '}') {
      close();
      inHost = false;
      continue;
    }
    const found = ICINGA_STATE.exec(l) ?? NAGIOS_STATE.exec(l);
    if (found) state = found[1];
    const name = NAGIOS_NAME.exec(l);
    if (name) host = name[1];
  }
  return out;
}

/** The whole file, refused past MAX_INVENTORY_BYTES; failures name the file and the fix. */
function readInventoryText(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
    throw new CheckError(`cannot read --inventory ${path}: ${why}; give the file --discovery-file writes, readable by this user`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new CheckError(`--inventory ${path} is not a regular file; give the file --discovery-file writes`);
    if (st.size > MAX_INVENTORY_BYTES)
      throw new CheckError(`--inventory ${path} holds ${st.size} bytes, more than the ${MAX_INVENTORY_BYTES} an inventory written by --discovery has`);
    const buffer = Buffer.alloc(st.size);
    let offset = 0;
    while (offset < buffer.length) {
      const n = readSync(fd, buffer, offset, buffer.length - offset, null);
      if (n === 0) break;
      offset += n;
    }
    return buffer.subarray(0, offset).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Every VM's powered-off state from the --inventory files, the later file winning for a VM in two. */
export function readPoweredOffStates(paths: readonly string[]): Map<string, State> {
  const out = new Map<string, State>();
  for (const path of paths) for (const [id, state] of poweredOffStatesOf(readInventoryText(path), `--inventory ${path}`)) out.set(id, state);
  return out;
}
