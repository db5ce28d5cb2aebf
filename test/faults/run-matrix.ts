import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { SimModule } from '../../sim/module';
import { startSimulatorFromArgs, type Simulator } from '../../sim/simulator';
import { runExecutable } from '../support/spawn';
import { CASES, DIST, SAMPLED, TARGETS, canIsolateNetwork, faultsFor, type Family, type Transport } from './matrix';
import { expectCleanFailure } from './rules';

/** Registers the whole matrix of one family (one test file each, so families run in parallel). */
export function registerMatrix(family: Family, module: SimModule): void {
  const sims: Record<'main' | 'wrong-host' | 'expired', Simulator> = {} as never;
  const isolate = canIsolateNetwork();
  let count = 0;

  beforeAll(async () => {
    sims.main = await startSimulatorFromArgs([], [module]);
    sims['wrong-host'] = await startSimulatorFromArgs(['--cert', 'wrong-host'], [module]);
    sims.expired = await startSimulatorFromArgs(['--cert', 'expired'], [module]);
    if (family === 'vm') {
      // Warm the session cache so the faults hit the metrics call, not the login.
      const target = TARGETS.find((t) => t.family === 'vm')!;
      await runExecutable(join(DIST, target.exe), target.args(sims.main, sims.main.apis.vcd.httpsUrl, 'https'));
    }
  });
  afterAll(async () => {
    await Promise.all(Object.values(sims).map((s) => s?.close()));
    console.log(`fault matrix (${family}${SAMPLED ? ', first plugin over HTTPS only' : ''}): ${count} fault cases run, every one ended as one clean line`);
  });

  const targets = TARGETS.filter((t) => t.family === family);
  // A case named in a target's `only` that the matrix does not have would drop silently.
  for (const t of targets) {
    const unknown = (t.only ?? []).filter((id) => !CASES.some((c) => c.id === id));
    if (unknown.length) throw new Error(`${t.exe}: no such fault case: ${unknown.join(', ')}`);
  }
  // On the other tested Node.js versions (SAMPLED) every case runs against the first plugin of
  // each family, over HTTPS only: what a Node version can change (its HTTP, TLS and stream
  // handling) is shared by every plugin of the family, HTTPS is the transport the plugins are
  // deployed with, and the host's run covers every plugin and plain HTTP.
  for (const target of targets.slice(0, SAMPLED ? 1 : undefined)) {
    // Plain HTTP is one transport shared by every plugin: the first of each family takes every
    // case over it, the others over HTTPS, the transport they are deployed with.
    for (const transport of (target === targets[0] && !SAMPLED ? ['http', 'https'] : ['https']) as Transport[]) {
      describe(`${target.exe} over ${transport}`, () => {
        const cases = CASES.filter(
          (c) =>
            (!c.only || c.only === family) &&
            (!c.transport || c.transport === transport) &&
            !target.skip?.includes(c.id) &&
            (!target.only || target.only.includes(c.id)) &&
            // Over plain HTTP, the transport's own faults: the hostile documents meet the same
            // readers as over HTTPS, which takes them all.
            (transport === 'https' || !c.id.startsWith('hostile:')) &&
            (!c.exes || c.exes.includes(target.exe)),
        );
        it.each(cases.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
          const sim = sims[c.sim ?? 'main'];
          const api = sim.apis[target.api];
          const base = transport === 'https' ? api.httpsUrl : api.httpUrl;
          const url = c.url ? await c.url(transport) : base;
          let args = target.args(sim, url, transport);
          if (c.noCaFile) {
            const i = args.indexOf('--ca-file');
            args = [...args.slice(0, i), ...args.slice(i + 2)];
          }
          for (const [option, value] of Object.entries(c.setArgs ?? {})) args[args.indexOf(option) + 1] = value;
          const timeout = c.timeoutSeconds ?? 3;
          // -t may be given once: a case that sets its own replaces the default.
          const extra = c.extraArgs ?? [];
          args.push(...(extra.includes('-t') ? [] : ['-t', String(timeout)]), ...extra);
          api.faults.set(faultsFor(c, target));
          const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
          let file = join(DIST, target.exe);
          if (c.isolated) {
            if (isolate) {
              args = [file, ...args];
              file = 'unshare';
              args = ['-n', ...args];
            } else env.NODE_OPTIONS = `--require ${join(__dirname, 'dns-stub.cjs')}`;
          }
          try {
            const r = await runExecutable(file, args, { env, killAfterMs: (timeout + 5) * 1000, measureRss: c.maxRssMb !== undefined });
            if (r.maxRssKb !== undefined)
              console.log(`${target.exe} over ${transport}, ${c.id}: ${r.ms} ms, peak ${Math.round(r.maxRssKb / 1024)} MiB, exit ${r.code}`);
            expectCleanFailure(r, c.cause[family], {
              timeoutSeconds: timeout,
              code: c.code ?? (c.id.startsWith('usage error') ? undefined : target.serverFaultCode),
              secrets: target.secrets(sims.main),
              maxRssMb: c.maxRssMb,
            });
            count++;
          } finally {
            api.faults.set([]);
          }
        });
      });
    }
  }
}
