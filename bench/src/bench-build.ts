import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { findWorkspaceRoot } from '@broker/local-services';

/**
 * The built tree whose services a bench starts: this checkout, or the tree `pnpm bench:compare` built of another
 * commit (BENCH_SERVICES_ROOT). The bench itself, its load, its schema and its data are always this checkout's, so
 * two builds are measured by the same yardstick and only the services' code differs.
 */
export function serviceEntry(relativePath: string): string {
  return path.join(process.env.BENCH_SERVICES_ROOT ?? findWorkspaceRoot(__dirname), relativePath);
}

/** One figure of a bench's results: a row (what was measured) and a metric of it. */
export interface BenchFigure {
  row: string;
  metric: string;
  value: number;
  /** Whether more of it is better (requests/s) or less (seconds, latency, memory). */
  better: 'higher' | 'lower';
}

/**
 * Hands a bench's figures to `pnpm bench:compare` (one JSON line each, into BENCH_RESULTS_FILE); without that
 * variable the bench only prints its report.
 */
export function recordFigures(figures: BenchFigure[]): void {
  const file = process.env.BENCH_RESULTS_FILE;
  if (!file) return;
  appendFileSync(file, figures.map((figure) => `${JSON.stringify(figure)}\n`).join(''));
}
