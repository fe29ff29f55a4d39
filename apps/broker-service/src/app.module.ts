import { type DynamicModule, Module } from '@nestjs/common';
import { inventoryEntities } from '@broker/inventory';
import { meldungenBody } from '@broker/errors';
import { PlatformModule, redisConnection } from '@broker/platform';
import { SvcAuthModule } from './auth/svc-auth.module.js';
import { BrokerModule } from './broker/broker.module.js';
import { CustomerPagesModule } from './customer-pages/customer-pages.module.js';
import type { BrokerConfig } from './config.js';
import { EmployeeModule } from './employee/employee.module.js';
import { MultiCallModule } from './multi-call/multi-call.module.js';
import { SignatureLinksModule } from './employee/signature-links/signature-links.module.js';
import { NotificationsModule } from './notifications/notifications.module.js';

/**
 * Area C: the employee service and the broker service, under /service/{tenant}/..., their multi-calls, and the
 * pages customers open from their links (signing the broker mandate, setting a password).
 */
@Module({})
export class AppModule {
  static forRoot(config: BrokerConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot({
          service: 'broker-service',
          logLevel: config.LOG_LEVEL,
          databaseUrl: config.DATABASE_URL,
          databasePoolWaitMs: config.DB_POOL_WAIT_MS,
          entities: inventoryEntities,
          redisUrl: config.REDIS_URL,
          errorBody: meldungenBody,
        }),
        SvcAuthModule.forRoot({
          redisUrl: config.REDIS_URL,
          redisPrefix: config.BROKER_REDIS_PREFIX,
          apiKeyEncryptionKey: config.API_KEY_ENCRYPTION_KEY,
        }),
        NotificationsModule.forRoot({
          smtpUrl: config.SMTP_URL,
          mailFrom: config.MAIL_FROM,
          smsGatewayUrl: config.SMS_GATEWAY_URL,
          customerBaseUrl: config.CUSTOMER_BASE_URL,
          sweepIntervalMs: config.NOTIFY_SWEEP_INTERVAL_MS,
          queue: {
            connection: redisConnection(config.REDIS_URL),
            prefix: `${config.BROKER_REDIS_PREFIX}queue`,
          },
        }),
        EmployeeModule.forRoot({
          searchConnections: config.SEARCH_CONNECTIONS,
          searchQueueLength: config.SEARCH_QUEUE_LENGTH,
          searchQueueWaitMs: config.SEARCH_QUEUE_WAIT_MS,
        }),
        SignatureLinksModule,
        BrokerModule,
        CustomerPagesModule.forRoot({
          redisUrl: config.REDIS_URL,
          redisPrefix: config.BROKER_REDIS_PREFIX,
          secret: config.API_KEY_ENCRYPTION_KEY,
          rateLimits: {
            unterschrift: {
              requests: config.SIGNING_RATE_LIMIT,
              windowSeconds: config.SIGNING_RATE_WINDOW_SECONDS,
            },
            'passwort-setzen': {
              requests: config.PASSWORD_PAGE_RATE_LIMIT,
              windowSeconds: config.PASSWORD_PAGE_RATE_WINDOW_SECONDS,
            },
          },
          trustedProxies: config.TRUSTED_PROXIES,
          secureCookies: config.CUSTOMER_BASE_URL.startsWith('https:'),
        }),
        MultiCallModule.forRoot({
          maxParts: config.MULTICALL_MAX_PARTS,
          maxPartBytes: config.MULTICALL_MAX_PART_BYTES,
          maxRequestBytes: config.MULTICALL_MAX_REQUEST_BYTES,
          maxPartHeaderBytes: 8 * 1024,
        }),
      ],
    };
  }
}
