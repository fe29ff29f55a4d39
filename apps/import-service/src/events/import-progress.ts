import {
  IMPORT_PIPELINE_STATUSES,
  type ImportPipelineStatus,
  type ImportProgress,
  type ImportStatus,
} from '@broker/contracts';

/**
 * Each stage's share of a typical import, by the status it produces: seconds per status of the 300,000-contract
 * run of `pnpm bench:import` (bench/README.md, 2026-11-28), in per cent, rounded; decoding the file and writing the
 * contracts (with the search documents beside them) take the most.
 */
const STAGE_WEIGHTS: Partial<Record<ImportPipelineStatus, number>> = {
  transmitted: 0.5,
  received: 2,
  imported: 30,
  validated: 2,
  customersParsed: 11,
  customersPrepared: 1.5,
  customersAssigned: 0.5,
  customersFinalized: 10,
  customersDone: 7.5,
  contractsPrepare: 4,
  contractsPrepared: 1,
  contractsFinalized: 28,
  processed: 2,
};
const TOTAL_WEIGHT = Object.values(STAGE_WEIGHTS).reduce((sum, weight) => sum + weight, 0);

/** Records done out of those of the file, within the stage that is running. */
export interface StageRecords {
  done: number;
  total: number;
}

const weightUpTo = (status: ImportPipelineStatus) =>
  IMPORT_PIPELINE_STATUSES.slice(0, IMPORT_PIPELINE_STATUSES.indexOf(status) + 1).reduce(
    (sum, reached) => sum + (STAGE_WEIGHTS[reached] ?? 0),
    0,
  );

/**
 * The progress of a process in `status` (the last pipeline status it reached, for a failed one `reachedBefore`),
 * with the running stage's records when it walks them.
 */
export function importProgress(
  status: ImportStatus,
  records?: StageRecords,
  reachedBefore?: ImportPipelineStatus,
): ImportProgress {
  if (status === 'failed')
    return { stage: 'failed', done: null, total: null, percent: percentAt(reachedBefore) };
  const next = IMPORT_PIPELINE_STATUSES[IMPORT_PIPELINE_STATUSES.indexOf(status) + 1];
  if (status === 'processed' || status === 'archived' || !next)
    return { stage: status, done: null, total: null, percent: 100 };
  const share = records && records.total > 0 ? Math.min(1, records.done / records.total) : 0;
  const reached = weightUpTo(status) + share * (STAGE_WEIGHTS[next] ?? 0);
  return {
    stage: next,
    done: records ? Math.min(records.done, records.total) : null,
    total: records ? records.total : null,
    percent: Math.min(99, Math.floor((100 * reached) / TOTAL_WEIGHT)),
  };
}

function percentAt(status: ImportPipelineStatus | undefined): number {
  return status ? Math.min(99, Math.floor((100 * weightUpTo(status)) / TOTAL_WEIGHT)) : 0;
}
