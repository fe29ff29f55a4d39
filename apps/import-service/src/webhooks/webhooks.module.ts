import { type DynamicModule, Module } from '@nestjs/common';
import { redisConnection } from '@broker/platform';
import type { ImportWorkerConfig } from '../config.js';
import {
  WEBHOOK_DELIVERY_SETTINGS,
  WebhookDeliveries,
  type WebhookDeliverySettings,
} from './webhook-deliveries.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WebhookOutbox } from './webhook-outbox.js';
import { WebhookSecretCipher } from './webhook-secrets.js';
import type { WebhookUrlPolicy } from './webhook-url.js';
import { WEBHOOK_URL_POLICY } from './webhooks.service.js';

function urlPolicy(config: ImportWorkerConfig): WebhookUrlPolicy {
  return { allowHttp: config.IMPORT_WEBHOOK_ALLOW_HTTP, allowedHosts: config.WEBHOOK_ALLOWED_HOSTS };
}

/** Webhooks (extension): what the API and the worker share; the API adds its controller, the worker the delivery. */
@Module({})
export class WebhooksModule {
  /** The outbox, the endpoints and their secrets, for the API. */
  static forApi(config: ImportWorkerConfig): DynamicModule {
    return {
      module: WebhooksModule,
      providers: [
        {
          provide: WebhookSecretCipher,
          useValue: new WebhookSecretCipher(config.IMPORT_WEBHOOK_ENCRYPTION_KEY),
        },
        { provide: WEBHOOK_URL_POLICY, useValue: urlPolicy(config) },
        WebhookOutbox,
        WebhookEndpointsRepository,
      ],
      exports: [WebhookSecretCipher, WEBHOOK_URL_POLICY, WebhookOutbox, WebhookEndpointsRepository],
    };
  }

  /** The outbox and its delivery, for the worker. */
  static forWorker(config: ImportWorkerConfig): DynamicModule {
    const settings: WebhookDeliverySettings = {
      connection: redisConnection(config.REDIS_URL),
      queuePrefix: config.IMPORT_QUEUE_PREFIX,
      policy: urlPolicy(config),
      retryBaseMs: config.IMPORT_WEBHOOK_RETRY_BASE_MS,
      retryMaxMs: config.IMPORT_WEBHOOK_RETRY_MAX_MS,
      disableAfterMs: config.IMPORT_WEBHOOK_DISABLE_AFTER_HOURS * 60 * 60 * 1000,
      dispatchIntervalMs: config.IMPORT_WEBHOOK_DISPATCH_MS,
      lockMs: config.IMPORT_STAGE_LOCK_MS,
    };
    return {
      module: WebhooksModule,
      providers: [
        {
          provide: WebhookSecretCipher,
          useValue: new WebhookSecretCipher(config.IMPORT_WEBHOOK_ENCRYPTION_KEY),
        },
        { provide: WEBHOOK_DELIVERY_SETTINGS, useValue: settings },
        WebhookOutbox,
        WebhookDeliveries,
      ],
      exports: [WebhookOutbox],
    };
  }
}
