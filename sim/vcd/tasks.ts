// The tasks of the simulated cloud director, answered as the query service does (type=task for
// a tenant, adminTask for System) with the attributes of the vendor's QueryResultTaskRecordType:
// name (the operation), operationFull, message (the error's), startDate, endDate, status,
// ownerName, object, objectType, objectName, org and orgName. Start dates are ages before the
// moment of the request, so a scenario's failures stay in a 15-minute window however long the
// simulator runs.
import { HOSTILE_NAMES } from './fleet';
import type { QueryRow } from './query';

/** One simulated task. */
export interface SimTask {
  id: string;
  operation: string;
  operationFull: string;
  org: string;
  owner: string;
  objectType: string;
  objectName: string;
  status: 'success' | 'error' | 'aborted' | 'canceled' | 'running' | 'queued';
  /** Seconds before the request that it started; how long it ran. */
  ageSeconds: number;
  ranSeconds: number;
  message?: string;
}

const guid = (n: number) => `${(0x7a5c0000 + n).toString(16).padStart(8, '0')}-1f2e-4d3c-8b4a-${n.toString(16).padStart(12, '0')}`;

let serial = 0;
function task(t: Omit<SimTask, 'id' | 'operationFull' | 'ranSeconds'> & { operationFull?: string; ranSeconds?: number }): SimTask {
  return { id: guid(++serial), operationFull: t.operationFull ?? `${t.operation} ${t.objectName}`, ranSeconds: 20, ...t };
}

/** The placement error vCD gives a compose that finds no room (as its task records show it). */
const NO_RESOURCES =
  'The operation failed because no suitable resource was found. Out of 2 candidate hubs: 2 hubs eliminated because: No host has enough available memory to satisfy the VM requirements.';

/** The default scenario: compose failures all morning in acme, one deploy failure in globex, and the day's ordinary work. */
function defaultTasks(tenant: string): SimTask[] {
  const fails = [3, 5, 8, 11].map((minutes, i) =>
    task({
      operation: 'vdcComposeVapp',
      operationFull: `Created Virtual Application web-0${i + 1}`,
      org: tenant,
      owner: 'alice',
      objectType: 'vApp',
      objectName: `web-0${i + 1}`,
      status: 'error',
      ageSeconds: minutes * 60,
      message: NO_RESOURCES,
    }),
  );
  return [
    ...fails,
    task({
      operation: 'vappDeploy',
      org: 'globex',
      owner: 'bob',
      objectType: 'vApp',
      objectName: 'erp',
      status: 'error',
      ageSeconds: 420,
      message: 'Cannot deploy: the vApp lease has expired.',
    }),
    task({ operation: 'vappPowerOn', org: tenant, owner: 'alice', objectType: 'vApp', objectName: 'db-01', status: 'success', ageSeconds: 240 }),
    task({ operation: 'vdcComposeVapp', org: tenant, owner: 'carol', objectType: 'vApp', objectName: 'app-01', status: 'success', ageSeconds: 600 }),
    task({ operation: 'vdcUpdateVdc', org: tenant, owner: 'system', objectType: 'vdc', objectName: `${tenant}-prod`, status: 'running', ageSeconds: 30 }),
    task({ operation: 'vappUndeployPowerOff', org: tenant, owner: 'carol', objectType: 'vApp', objectName: 'test-07', status: 'canceled', ageSeconds: 300 }),
    task({ operation: 'vappPowerOn', org: 'globex', owner: 'bob', objectType: 'vApp', objectName: 'crm', status: 'success', ageSeconds: 200 }),
    // Outside a 15-minute window: an abort of two hours ago.
    task({
      operation: 'vdcCopyTemplate',
      org: tenant,
      owner: 'alice',
      objectType: 'vAppTemplate',
      objectName: 'ubuntu-22',
      status: 'aborted',
      ageSeconds: 7200,
      message: 'Aborted by the system on cell restart.',
    }),
  ];
}

/** Ordinary work only. */
function healthyTasks(tenant: string): SimTask[] {
  return defaultTasks(tenant).filter((t) => t.status !== 'error' && t.status !== 'aborted');
}

/** The hostile scenario: failures whose names and messages attack the monitoring. */
function hostileTasks(tenant: string): SimTask[] {
  return HOSTILE_NAMES.map(([name, vapp], i) =>
    task({
      operation: 'vdcComposeVapp',
      org: tenant,
      owner: vapp,
      objectType: 'vApp',
      objectName: name,
      status: 'error',
      ageSeconds: 60 + i * 30,
      message: `${vapp}\n${name}`,
    }),
  );
}

/** The tasks of a scenario, and `extra` more in `tenant` (every tenth failed) for the listing of a busy cloud. */
export function scenarioTasks(scenario: string, tenant: string, extra = 0): SimTask[] {
  const base = scenario === 'default' ? defaultTasks(tenant) : scenario === 'hostile' ? hostileTasks(tenant) : healthyTasks(tenant);
  const bulk: SimTask[] = [];
  for (let n = 0; n < extra; n++)
    bulk.push({
      id: guid(1_000_000 + n),
      operation: n % 10 === 0 ? 'vdcComposeVapp' : 'vappPowerOn',
      operationFull: 'bulk',
      org: tenant,
      owner: 'bulk',
      objectType: 'vApp',
      objectName: `bulk-${String(n).padStart(6, '0')}`,
      status: n % 10 === 0 ? 'error' : 'success',
      ageSeconds: 60 + (n % 600),
      ranSeconds: 5,
      ...(n % 10 === 0 ? { message: NO_RESOURCES } : {}),
    });
  return [...base, ...bulk];
}

/** The tasks as query rows (`adminTask`: AdminTaskRecord), their dates written at the moment a page holds them. */
export function taskRows(tasks: readonly SimTask[], base: string, admin: boolean, orgHref: (org: string) => string, now: () => number = Date.now): QueryRow[] {
  return tasks.map((t) => {
    const start = () => new Date(now() - t.ageSeconds * 1000).toISOString();
    const values = (): Record<string, string> => {
      const done = t.status !== 'running' && t.status !== 'queued';
      return {
        href: `${base}/api/task/${t.id}`,
        id: `urn:vcloud:task:${t.id}`,
        name: t.operation,
        operationFull: t.operationFull,
        ...(t.message !== undefined ? { message: t.message } : {}),
        startDate: start(),
        ...(done ? { endDate: new Date(now() - (t.ageSeconds - t.ranSeconds) * 1000).toISOString() } : {}),
        status: t.status,
        ownerName: t.owner,
        object: `${base}/api/vApp/vapp-${t.id}`,
        objectType: t.objectType,
        objectName: t.objectName,
        serviceNamespace: 'com.vmware.cloud',
        org: orgHref(t.org),
        orgName: t.org,
      };
    };
    return {
      name: t.operation,
      id: t.id,
      attr: (a) => (a === 'startDate' ? start() : a === 'orgName' ? t.org : a === 'status' ? t.status : a === 'name' ? t.operation : values()[a]),
      element: admin ? 'AdminTaskRecord' : 'TaskRecord',
      get xml() {
        return Object.entries(values());
      },
      get json() {
        return { _type: admin ? 'QueryResultAdminTaskRecordType' : 'QueryResultTaskRecordType', ...values() };
      },
    };
  });
}
