import { type DynamicModule, Module } from '@nestjs/common';
import { inventoryEntities } from '@broker/inventory';
import { apiErrorBody } from '@broker/errors';
import { PlatformModule } from '@broker/platform';
import type { ImportWorkerConfig } from './config.js';
import { PipelineWorkerModule } from './pipeline/pipeline.module.js';
import { DirectoryFileStorage } from './storage/file-storage.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Two connections for each job at once (a stage may work beside its own transaction, SqlStage.besides, and holds
 * its first connection until the second is done: with fewer, jobs holding one each could all wait for a second
 * until the pool's wait ran out), and a few for the sweeper and the webhook deliveries.
 */
const poolSizeFor = (concurrency: number) => Math.max(10, 2 * concurrency + 4);

/**
 * Area A, worker process: runs the import pipeline's jobs. It serves no API, only the probes
 * (/health/live, /health/ready) on its own PORT, for the orchestrator.
 */
@Module({})
export class WorkerModule {
  static forRoot(config: ImportWorkerConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        PlatformModule.forRoot({
          service: 'import-worker',
          logLevel: config.LOG_LEVEL,
          databaseUrl: config.DATABASE_URL,
          databasePoolWaitMs: config.DB_POOL_WAIT_MS,
          databasePoolSize: poolSizeFor(config.IMPORT_WORKER_CONCURRENCY),
          entities: inventoryEntities,
          redisUrl: config.REDIS_URL,
          errorBody: apiErrorBody,
        }),
        PipelineWorkerModule.forRoot({
          redisUrl: config.REDIS_URL,
          queuePrefix: config.IMPORT_QUEUE_PREFIX,
          storage: new DirectoryFileStorage(config.IMPORT_STORAGE_DIR),
          webhooks: WebhooksModule.forWorker(config),
          sweeper: { intervalMs: config.IMPORT_SWEEP_INTERVAL_MS, idleMs: config.IMPORT_STAGE_IDLE_MS },
          retentionMs: config.IMPORT_RETENTION_DAYS * DAY_MS,
          concurrency: config.IMPORT_WORKER_CONCURRENCY,
          lockMs: config.IMPORT_STAGE_LOCK_MS,
          retry: {
            outageBudgetMs: config.IMPORT_DB_OUTAGE_BUDGET_MS,
            maxDelayMs: config.IMPORT_RETRY_MAX_DELAY_MS,
          },
        }),
      ],
    };
  }
}
