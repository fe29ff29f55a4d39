import type { StageOutage } from '@broker/contracts';

export const STAGE_RETRY_SETTINGS = Symbol('STAGE_RETRY_SETTINGS');

export interface StageRetrySettings {
  /** How long a stage waits out a database that is out of reach before its import fails (IMPORT_DB_OUTAGE_BUDGET_MS). */
  outageBudgetMs: number;
  /** The longest wait between two tries while it is (IMPORT_RETRY_MAX_DELAY_MS). */
  maxDelayMs: number;
}

const FIRST_DELAY_MS = 1_000;

/**
 * The outage of a stage job after one more try failed because the database was out of reach, and the wait before
 * the next try; undefined once the outage budget, counted from the first such failure, is spent. The wait doubles
 * from 1 s up to `maxDelayMs`. Any other technical fault is left to the job's attempts (5, exponential backoff),
 * bad data fails at once.
 */
export function nextOutageTry(
  previous: StageOutage | undefined,
  now: number,
  settings: StageRetrySettings,
): { outage: StageOutage; delayMs: number } | undefined {
  const since = previous?.since ?? now;
  if (now - since >= settings.outageBudgetMs) return undefined;
  const tries = (previous?.tries ?? 0) + 1;
  return {
    outage: { since, tries },
    delayMs: Math.min(settings.maxDelayMs, FIRST_DELAY_MS * 2 ** (tries - 1)),
  };
}
