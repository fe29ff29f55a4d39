import type { StageFaults } from '@broker/contracts';
import { isDatabaseUnavailable } from '@broker/db';

export const STAGE_RETRY_SETTINGS = Symbol('STAGE_RETRY_SETTINGS');

export interface StageRetrySettings {
  /** How long a stage waits out a database that is out of reach before its import fails (IMPORT_DB_OUTAGE_BUDGET_MS). */
  outageBudgetMs: number;
  /** The longest wait between two tries (IMPORT_RETRY_MAX_DELAY_MS). */
  maxDelayMs: number;
}

/** Tries of a stage that fails for anything else (a fault of ours, a deadlock) before its import fails. */
export const OTHER_FAULT_TRIES = 5;
const FIRST_DELAY_MS = 1_000;

/**
 * The faults of a stage job after one more failed try, with the wait before the next; undefined when the import
 * should fail instead. A database out of reach (stopped, restarting, a killed connection) is waited out for the
 * outage budget, counted from the first such failure; any other fault is tried OTHER_FAULT_TRIES times. The wait
 * doubles from 1 s up to `maxDelayMs`. Bad data never comes here: it fails the import at once.
 */
export function afterFailedTry(
  previous: StageFaults | undefined,
  error: unknown,
  now: number,
  settings: StageRetrySettings,
): StageFaults | undefined {
  const tries = (previous?.tries ?? 0) + 1;
  const delayMs = Math.min(settings.maxDelayMs, FIRST_DELAY_MS * 2 ** (tries - 1));
  if (isDatabaseUnavailable(error)) {
    const outageSince = previous?.outageSince ?? now;
    if (now - outageSince >= settings.outageBudgetMs) return undefined;
    return { tries, otherFaults: previous?.otherFaults ?? 0, outageSince, delayMs };
  }
  const otherFaults = (previous?.otherFaults ?? 0) + 1;
  if (otherFaults >= OTHER_FAULT_TRIES) return undefined;
  // The database answered: a later outage is waited out afresh.
  return { tries, otherFaults, delayMs };
}
