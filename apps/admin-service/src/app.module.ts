import { type DynamicModule, Logger, Module } from '@nestjs/common';
import type { DestinationStream } from 'pino';
import { DataSource } from 'typeorm';
import {
  Administration,
  ImportProcessOperations,
  OutboxMessageOperations,
  WebhookEndpointOperations,
} from '@broker/administration';
import { ApiKeyCipher, OAuthTokenVerifier } from '@broker/auth';
import { apiErrorBody } from '@broker/errors';
import { ClientAddresses, PlatformModule } from '@broker/platform';
import { ApiClientsController } from './api-clients/api-clients.controller.js';
import { AuditController } from './audit/audit.controller.js';
import { AdminGuard } from './auth/admin.guard.js';
import { BrokersController } from './brokers/brokers.controller.js';
import { EmployeesController } from './brokers/employees.controller.js';
import { CalcUsersController } from './calc-users/calc-users.controller.js';
import { CompaniesController } from './companies/companies.controller.js';
import type { AdminConfig } from './config.js';
import { CSV_LIMIT_BYTES, CsvBodyInterceptor } from './master-data/csv-body.interceptor.js';
import { MasterDataController } from './master-data/master-data.controller.js';
import { ImportProcessesController } from './operations/import-processes.controller.js';
import {
  IMPORT_STREAM_HEARTBEAT_SECONDS,
  IMPORT_STREAM_SETTINGS,
  ImportProcessStreams,
} from './operations/import-process-streams.js';
import { OutboxMessagesController } from './operations/outbox-messages.controller.js';
import { PlatformQueueClients } from './operations/platform-queue-clients.js';
import { WebhookEndpointsController } from './operations/webhook-endpoints.controller.js';
import { TenantsController } from './tenants/tenants.controller.js';

const logger = new Logger('AdminAuth');

function tokenVerifier(config: AdminConfig): OAuthTokenVerifier {
  return new OAuthTokenVerifier({
    issuer: config.ADMIN_OAUTH_ISSUER,
    audience: config.ADMIN_OAUTH_AUDIENCE,
    jwksUrl: config.ADMIN_OAUTH_JWKS_URL,
    publicKeyPem: config.ADMIN_OAUTH_PUBLIC_KEY,
    algorithms: config.ADMIN_OAUTH_ALGORITHMS,
    requiredScope: 'platform.admin',
    jwksMaxAgeMs: config.ADMIN_OAUTH_JWKS_MAX_AGE_SECONDS * 1000,
    onKeySourceFault: (url, error) =>
      logger.error(`The authorization server's keys cannot be read from ${url}: ${String(error)}`),
  });
}

/** The live views of import processes: read each second, kept open by a comment every 15 s, 200 at once. */
const IMPORT_STREAMS = {
  pollMs: 1_000,
  heartbeatMs: IMPORT_STREAM_HEARTBEAT_SECONDS * 1_000,
  maxStreams: 200,
};

/** The administration service (beyond the spec): /admin/v1. */
@Module({})
export class AppModule {
  /** `logOutput`: where log lines go instead of stdout (tests read them). */
  static forRoot(config: AdminConfig, logOutput?: DestinationStream): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({
          service: 'admin-service',
          logLevel: config.LOG_LEVEL,
          databaseUrl: config.DATABASE_URL,
          databasePoolWaitMs: config.DB_POOL_WAIT_MS,
          errorBody: apiErrorBody,
          logOutput,
        }),
      ],
      controllers: [
        TenantsController,
        BrokersController,
        EmployeesController,
        ApiClientsController,
        CalcUsersController,
        CompaniesController,
        MasterDataController,
        AuditController,
        ImportProcessesController,
        WebhookEndpointsController,
        OutboxMessagesController,
      ],
      providers: [
        { provide: OAuthTokenVerifier, useValue: tokenVerifier(config) },
        { provide: ClientAddresses, useValue: new ClientAddresses(config.TRUSTED_PROXIES) },
        {
          provide: Administration,
          useFactory: (db: DataSource) =>
            new Administration(db, new ApiKeyCipher(config.API_KEY_ENCRYPTION_KEY)),
          inject: [DataSource],
        },
        {
          provide: PlatformQueueClients,
          useFactory: () =>
            config.REDIS_URL
              ? new PlatformQueueClients({
                  redisUrl: config.REDIS_URL,
                  importPrefix: config.IMPORT_QUEUE_PREFIX,
                  brokerPrefix: config.BROKER_REDIS_PREFIX,
                })
              : null,
        },
        {
          provide: ImportProcessOperations,
          useFactory: (db: DataSource, queues: PlatformQueueClients | null) =>
            new ImportProcessOperations(db, queues),
          inject: [DataSource, PlatformQueueClients],
        },
        {
          provide: WebhookEndpointOperations,
          useFactory: (db: DataSource) => new WebhookEndpointOperations(db),
          inject: [DataSource],
        },
        {
          provide: OutboxMessageOperations,
          useFactory: (db: DataSource, queues: PlatformQueueClients | null) =>
            new OutboxMessageOperations(db, queues),
          inject: [DataSource, PlatformQueueClients],
        },
        { provide: IMPORT_STREAM_SETTINGS, useValue: IMPORT_STREAMS },
        ImportProcessStreams,
        { provide: CSV_LIMIT_BYTES, useValue: config.ADMIN_MASTER_DATA_MAX_BYTES },
        CsvBodyInterceptor,
        AdminGuard,
      ],
    };
  }
}
