/**
 * CPU milliseconds (user + system) this process spends in `run`. Unlike wall time, other processes'
 * load does not add to it, so a hang guard on it holds on a busy machine.
 */
export function cpuMs(run: () => unknown): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}
