import { type DynamicModule, Logger, Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { OAuthBearerGuard, OAuthTokenVerifier } from '@broker/auth';
import { AdmissionGate } from '@broker/platform';
import type { ImportConfig } from '../config.js';
import { ImportEventsModule } from '../events/import-events.module.js';
import { ProcessEventsController } from '../events/process-events.controller.js';
import { EVENT_STREAM_SETTINGS, ProcessEventStreams } from '../events/process-event-streams.js';
import { DryRunModule } from '../pipeline/dry-run.js';
import { PipelineQueueModule } from '../pipeline/pipeline.module.js';
import { DirectoryFileStorage, FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import { StreamingUploadStorage } from '../storage/upload-storage-engine.js';
import { WebhooksController } from '../webhooks/webhooks.controller.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { WebhooksService } from '../webhooks/webhooks.service.js';
import { BrokerDirectory } from './broker-directory.js';
import { ImportController } from './import.controller.js';
import { ImportProcessRepository } from './import-process.repository.js';
import { DRY_RUN_SETTINGS, type DryRunSettings, ImportService } from './import.service.js';
import { RemoveUploadOnErrorInterceptor } from './remove-upload-on-error.interceptor.js';
import { UploadAdmissionInterceptor } from './upload-admission.interceptor.js';

const logger = new Logger('OAuth');

/** Multipart limits besides the file size: one file, a few short text fields. */
const FORM_LIMITS = { files: 1, fields: 60, fieldSize: 1024, parts: 64 };

@Module({})
export class ImportModule {
  static forRoot(config: ImportConfig): DynamicModule {
    const storage: FileStorage = new DirectoryFileStorage(config.IMPORT_STORAGE_DIR);
    return {
      module: ImportModule,
      imports: [
        PipelineQueueModule.forRoot({
          redisUrl: config.REDIS_URL,
          queuePrefix: config.IMPORT_QUEUE_PREFIX,
          storage,
        }),
        ImportEventsModule.forRoot({ redisUrl: config.REDIS_URL, prefix: config.IMPORT_QUEUE_PREFIX }),
        DryRunModule.forRoot(storage),
        WebhooksModule.forApi(config),
        MulterModule.register({
          storage: new StreamingUploadStorage(storage),
          limits: { ...FORM_LIMITS, fileSize: config.IMPORT_MAX_UPLOAD_BYTES },
        }),
      ],
      controllers: [ImportController, ProcessEventsController, WebhooksController],
      providers: [
        { provide: FILE_STORAGE, useValue: storage },
        {
          provide: EVENT_STREAM_SETTINGS,
          useValue: {
            heartbeatMs: config.IMPORT_EVENTS_HEARTBEAT_MS,
            pollMs: config.IMPORT_EVENTS_POLL_MS,
            maxStreams: config.IMPORT_EVENT_STREAMS_MAX,
          },
        },
        ProcessEventStreams,
        WebhooksService,
        {
          provide: DRY_RUN_SETTINGS,
          useValue: {
            syncMaxBytes: config.IMPORT_DRY_RUN_SYNC_MAX_BYTES,
            // A dry run holds a database connection for its whole run: a few at once, a short queue.
            gate: new AdmissionGate({
              inProgress: config.IMPORT_DRY_RUNS_AT_ONCE,
              maxWaiting: 16,
              maxWaitMs: 10_000,
            }),
          } satisfies DryRunSettings,
        },
        {
          provide: OAuthTokenVerifier,
          useValue: new OAuthTokenVerifier({
            issuer: config.IMPORT_OAUTH_ISSUER,
            audience: config.IMPORT_OAUTH_AUDIENCE,
            jwksUrl: config.IMPORT_OAUTH_JWKS_URL,
            publicKeyPem: config.IMPORT_OAUTH_PUBLIC_KEY,
            algorithms: config.IMPORT_OAUTH_ALGORITHMS,
            requiredScope: 'service.imports',
            jwksMaxAgeMs: config.IMPORT_OAUTH_JWKS_MAX_AGE_SECONDS * 1000,
            onKeySourceFault: (jwksUrl, error) =>
              logger.warn(
                `The authorization server's keys at ${jwksUrl} cannot be read (${error instanceof Error ? error.message : String(error)}); requests are refused with 503`,
              ),
          }),
        },
        OAuthBearerGuard,
        BrokerDirectory,
        ImportProcessRepository,
        ImportService,
        RemoveUploadOnErrorInterceptor,
        UploadAdmissionInterceptor,
      ],
    };
  }
}
