import { type DynamicModule, Logger, Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { OAuthBearerGuard, OAuthTokenVerifier } from '@broker/auth';
import type { ImportConfig } from '../config.js';
import { PipelineQueueModule } from '../pipeline/pipeline.module.js';
import { DirectoryFileStorage, FILE_STORAGE, type FileStorage } from '../storage/file-storage.js';
import { StreamingUploadStorage } from '../storage/upload-storage-engine.js';
import { BrokerDirectory } from './broker-directory.js';
import { ImportController } from './import.controller.js';
import { ImportProcessRepository } from './import-process.repository.js';
import { ImportService } from './import.service.js';
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
        MulterModule.register({
          storage: new StreamingUploadStorage(storage),
          limits: { ...FORM_LIMITS, fileSize: config.IMPORT_MAX_UPLOAD_BYTES },
        }),
      ],
      controllers: [ImportController],
      providers: [
        { provide: FILE_STORAGE, useValue: storage },
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
