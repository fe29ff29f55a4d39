import { readFileSync } from 'node:fs';

/** The machine's CPU time split as /proc/stat counts it, in clock ticks summed over all cores. */
interface CpuTicks {
  total: number;
  idle: number;
  steal: number;
}

function cpuTicks(): CpuTicks | undefined {
  let line: string | undefined;
  try {
    line = readFileSync('/proc/stat', 'latin1').split('\n', 1)[0];
  } catch {
    return undefined; // not Linux
  }
  // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest time is already in user)
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map(Number);
  return { total: user + nice + system + idle + iowait + irq + softirq + steal, idle: idle + iowait, steal };
}

/**
 * How busy the machine's cores were from now until `read()`: the share of CPU time spent working and the share
 * the hypervisor gave to other guests (steal). A run with much steal is slower for reasons outside the bench,
 * so its numbers are compared only with those measured at the same time.
 */
export function cpuTimeMeter(): { read(): string } {
  const start = cpuTicks();
  return {
    read() {
      const end = cpuTicks();
      if (!start || !end || end.total === start.total) return 'CPU time not measured (no /proc/stat)';
      const total = end.total - start.total;
      const percent = (ticks: number) => `${Math.round((100 * ticks) / total)} %`;
      const steal = end.steal - start.steal;
      const busy = total - (end.idle - start.idle) - steal;
      return `CPU ${percent(busy)} busy, ${percent(steal)} stolen by the host`;
    },
  };
}
