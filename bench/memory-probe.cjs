// Preloaded by bench/bench.py (node -r) when a memory target is missed: samples
// process.memoryUsage() every 2 ms and, at exit, writes the peak of each figure (MiB) to the
// file named by CLOUDCHECKS_MEMORY_PROBE, so that RESULTS.md can say where the memory goes.
'use strict';
const fs = require('node:fs');
const peak = {};
const sample = () => {
  const m = process.memoryUsage();
  for (const k of Object.keys(m)) peak[k] = Math.max(peak[k] || 0, m[k]);
};
setInterval(sample, 2).unref();
process.on('exit', () => {
  sample();
  const out = Object.fromEntries(Object.entries(peak).map(([k, v]) => [k, Math.round((v / 1048576) * 10) / 10]));
  fs.writeFileSync(process.env.CLOUDCHECKS_MEMORY_PROBE, JSON.stringify(out));
});
