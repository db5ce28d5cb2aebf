// The CPU time this process has used, in ms: what a bound on a parser's work is measured in.
// Wall time also counts the time other processes held the CPU, so on a busy machine a linear
// parser could look quadratic; its own CPU time stays what its work costs.
export function cpuNow(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
