// cloudchecks-sim: local cluster and cloud-director APIs with realistic data, for the demo,
// the tests, the benchmarks, and users trying a configuration without a real service.
import { writeFileSync } from 'node:fs';
import { parseOptions, pickOptions, renderHelp } from '../lib/plugin/options';
import { VERSION as version } from '../lib/plugin/version';
import { SIM_MODULES } from './modules';
import { SIM_OPTIONS, simulatorOptions, startFailureLine, startSimulator } from './simulator';

async function main(): Promise<void> {
  const specs = simulatorOptions(SIM_MODULES);
  const options = parseOptions(process.argv.slice(2), specs);
  const own = pickOptions(options, SIM_OPTIONS);
  if (own.help) {
    process.stdout.write(
      renderHelp({
        command: 'cloudchecks-sim',
        version,
        description:
          'Serves simulated APIs on 127.0.0.1 until interrupted; prints where they are. PUT a JSON array of faults to <api>/_sim/faults to inject failures; GET <api>/_sim/stats for counters.',
        usage: 'cloudchecks-sim [options]',
        specs,
        examples: ['cloudchecks-sim --cluster-scenario sick --ready-file /tmp/sim.json', 'cloudchecks-sim --cluster-port 6443 --vcd-port 8443'],
      }),
    );
    return;
  }
  const sim = await startSimulator(options, SIM_MODULES);
  const ready = { pid: process.pid, caFile: sim.caFile, stateDir: sim.stateDir, apis: {} as Record<string, object> };
  process.stdout.write(`cloudchecks-sim ${version} (pid ${process.pid})\n  ca file: ${sim.caFile}\n`);
  for (const [name, api] of Object.entries(sim.apis)) {
    ready.apis[name] = { httpUrl: api.httpUrl, httpsUrl: api.httpsUrl, ...api.info };
    process.stdout.write(`  ${name}: ${api.httpsUrl} (http: ${api.httpUrl})\n`);
    for (const [k, v] of Object.entries(api.info)) process.stdout.write(`    ${k}: ${v}\n`);
  }
  if (own['ready-file']) writeFileSync(own['ready-file'], JSON.stringify(ready, null, 2));
  const stop = () => {
    void sim.close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  process.stderr.write(`${startFailureLine(error)}\n`);
  process.exit(1);
});
