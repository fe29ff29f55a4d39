import { BullModule } from '@nestjs/bullmq';
import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { ImportEventsModule } from '../events/import-events.module.js';
import { DRY_RUN_SQL_STAGES, DryRunModule } from './dry-run.js';
import { DryRunProcess } from './dry-run-process.js';
import { FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import { ImportProcessStateRepository } from './import-process-state.repository.js';
import { IMPORT_PIPELINE_QUEUE } from '@broker/contracts';
import { PipelineMetrics } from './pipeline-metrics.js';
import { PipelineQueue } from './pipeline-queue.js';
import { redisConnection } from '@broker/platform';
import { queueTelemetry } from '@broker/telemetry';
import { STAGE_HANDLERS } from './stage-handler.js';
import { STAGE_RETRY_SETTINGS, type StageRetrySettings } from './stage-retry.js';
import { StageRunner } from './stage-runner.js';
import { STAGE_WORKER_SETTINGS, StageWorker, type StageWorkerSettings } from './stage-worker.js';
import { ArchiveStage, RETENTION_MS } from './stages/archive.stage.js';
import { CompleteStage } from './stages/complete.stage.js';
import { ImportStage } from './stages/import.stage.js';
import { ReceiveStage } from './stages/receive.stage.js';
import { StagingRepository } from './staging.repository.js';
import { TransmitStage } from './stages/transmit.stage.js';
import { SWEEPER_SETTINGS, Sweeper, type SweeperSettings } from './sweeper.js';

/** The stage handlers, in pipeline order: adding a stage means adding its handler here (or to the dry run's). */
const STAGES = [TransmitStage, ReceiveStage, ImportStage, ...DRY_RUN_SQL_STAGES, CompleteStage, ArchiveStage];

export interface PipelineSettings {
  redisUrl: string;
  /** Key prefix of the queue in Redis (tests give each file its own). */
  queuePrefix: string;
  storage: FileStorage;
}

function queueModules(settings: PipelineSettings): DynamicModule[] {
  return [
    BullModule.forRoot({
      connection: redisConnection(settings.redisUrl),
      prefix: settings.queuePrefix,
      ...queueTelemetry(),
    }),
    BullModule.registerQueue({ name: IMPORT_PIPELINE_QUEUE }),
  ];
}

/** The API side: enqueue the first stage of a new process. */
@Module({})
export class PipelineQueueModule {
  static forRoot(settings: PipelineSettings): DynamicModule {
    return {
      module: PipelineQueueModule,
      imports: queueModules(settings),
      providers: [PipelineQueue],
      exports: [PipelineQueue],
    };
  }
}

/** The worker side: the stage runner, the stages and the sweeper. */
@Module({})
export class PipelineWorkerModule {
  static forRoot(
    settings: PipelineSettings & {
      /** The webhook outbox the status changes write to, and its delivery (WebhooksModule.forWorker). */
      webhooks: DynamicModule;
      sweeper: SweeperSettings;
      retentionMs: number;
      concurrency: number;
      lockMs: number;
      retry: StageRetrySettings;
    },
  ): DynamicModule {
    const handlers: Provider = {
      provide: STAGE_HANDLERS,
      useFactory: (...stages: unknown[]) => stages,
      inject: STAGES,
    };
    return {
      module: PipelineWorkerModule,
      imports: [
        ...queueModules(settings),
        ImportEventsModule.forRoot({ redisUrl: settings.redisUrl, prefix: settings.queuePrefix }),
        DryRunModule.forRoot(settings.storage),
        settings.webhooks,
      ],
      providers: [
        { provide: FILE_STORAGE, useValue: settings.storage },
        { provide: SWEEPER_SETTINGS, useValue: settings.sweeper },
        { provide: RETENTION_MS, useValue: settings.retentionMs },
        { provide: STAGE_RETRY_SETTINGS, useValue: settings.retry },
        {
          provide: STAGE_WORKER_SETTINGS,
          useValue: {
            connection: redisConnection(settings.redisUrl),
            queuePrefix: settings.queuePrefix,
            concurrency: settings.concurrency,
            lockMs: settings.lockMs,
          } satisfies StageWorkerSettings,
        },
        ...STAGES,
        handlers,
        ImportProcessStateRepository,
        StagingRepository,
        PipelineQueue,
        PipelineMetrics,
        DryRunProcess,
        StageRunner,
        StageWorker,
        Sweeper,
      ],
    };
  }
}
