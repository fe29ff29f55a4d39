import { readFileSync } from 'node:fs';
import os from 'node:os';

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

/** One reading of the machine's and one process's CPU time (clock ticks), at a wall-clock time (ms). */
interface CpuSample {
  at: number;
  busy: number;
  total: number;
  process: number;
}

/** utime + stime of a process in clock ticks, 0 when it cannot be read. */
function processTicks(pid: number | undefined): number {
  try {
    // Fields after the command name, which is in parentheses and may hold blanks: state is the first.
    const fields = readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** Linux's USER_HZ: /proc counts CPU time in hundredths of a second. */
const TICKS_PER_SECOND = 100;

/** How many cores were busy in a time window: the machine's, and the sampled process's (a Node.js service). */
export interface CoresBusy {
  machine: number;
  process: number;
}

/**
 * Samples the machine's and process `pid`'s CPU time every `everyMs` until `stop()`, so a run's phases (an
 * import's statuses) can be told apart afterwards: how many of the cores were working in each, and how many of
 * those the process used (the rest is the database and everything else).
 */
export function cpuSampler(pid: number | undefined, everyMs = 100): { stop(): CpuSampleSeries } {
  const samples: CpuSample[] = [];
  const sample = () => {
    const ticks = cpuTicks();
    if (ticks)
      samples.push({
        at: Date.now(),
        busy: ticks.total - ticks.idle - ticks.steal,
        total: ticks.total,
        process: processTicks(pid),
      });
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return new CpuSampleSeries(samples);
    },
  };
}

export class CpuSampleSeries {
  private readonly cores = os.cpus().length;

  constructor(private readonly samples: CpuSample[]) {}

  /** The cores busy between two wall-clock times (ms), from the samples nearest inside the window. */
  between(from: number, to: number): CoresBusy | undefined {
    const inside = this.samples.filter((sample) => sample.at >= from && sample.at <= to);
    const first = inside[0];
    const last = inside[inside.length - 1];
    if (!first || !last || last.total === first.total) return undefined;
    const seconds = (last.at - first.at) / 1000;
    return {
      machine: ((last.busy - first.busy) / (last.total - first.total)) * this.cores,
      process: (last.process - first.process) / TICKS_PER_SECOND / seconds,
    };
  }
}
