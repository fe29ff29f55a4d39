import { IMPORT_PIPELINE_STATUSES, type ImportPipelineStatus } from '@broker/contracts';

/** The status a stage leaves the process in: the next one in the spec's order. */
export function statusAfter(status: ImportPipelineStatus): ImportPipelineStatus | undefined {
  return IMPORT_PIPELINE_STATUSES[IMPORT_PIPELINE_STATUSES.indexOf(status) + 1];
}
