// fetchMetrics: the metrics of one VM read on the per-VM seam (withVm) as the VM checks read
// them, for the tests of sessions, logins and names that need one read to drive them.
import type { SessionRequest } from '../../lib/vcd/api/session';
import type { SessionGet } from '../../lib/vcd/api/session-reads';

import { readMetrics, type MetricsKind, type MetricsResponse } from '../../lib/vcd/vm/vm-metrics';
import { withVm, type VmIdentity, type VmSelector } from '../../lib/vcd/vm/vm-session';

export interface MetricsRequest extends SessionRequest {
  vm: VmSelector['target'];
  /** --vapp: narrows a name to one vApp. */
  vapp?: string;
  /** How long a resolved name is reused (--resolve-ttl), in ms. */
  resolveTtlMs?: number;
  which: MetricsKind;
  /**
   * Called with the answer while the session is still open (a --no-cache logout waits for it),
   * for reads the answer calls for: the VM's record when metrics are refused or stop.
   */
  follow?(response: MetricsResponse & { vm: VmIdentity }, get: SessionGet): Promise<void>;
}

/**
 * Gets `/api/vApp/<vm>/metrics/<which>` of the VM `req.vm` names (resolving a name first) in
 * the run's session (withVm), and maps HTTP failures to CheckErrors; `follow` reads on.
 */
export function fetchMetrics(req: MetricsRequest): Promise<MetricsResponse & { vm: VmIdentity }> {
  return withVm(req, { target: req.vm, vapp: req.vapp, resolveTtlMs: req.resolveTtlMs }, async ({ vm, get }) => {
    const response = { ...(await readMetrics(req, vm, get, req.which)), vm };
    await req.follow?.(response, get);
    return response;
  });
}
