import { Inject, Injectable } from '@nestjs/common';
import type {
  CreateWebhookEndpoint,
  WebhookAttemptView,
  WebhookEndpointCreated,
  WebhookEndpointView,
} from '@broker/contracts';
import type { OAuthPrincipal } from '@broker/auth';
import { DomainError, ErrorCode } from '@broker/errors';
import { ImportService } from '../imports/import.service.js';
import { type WebhookEndpointRow, WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { newWebhookSecret, WebhookSecretCipher } from './webhook-secrets.js';
import { deliveryAddress, parseWebhookUrl, WebhookUrlRefused, type WebhookUrlPolicy } from './webhook-url.js';

export const WEBHOOK_URL_POLICY = Symbol('WEBHOOK_URL_POLICY');

/** Endpoints one broker may register. */
export const MAX_ENDPOINTS_PER_BROKER = 20;

const seconds = (time: Date) => Math.floor(time.getTime() / 1000);

function view(row: WebhookEndpointRow): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    event_types: row.eventTypes,
    created_at: seconds(row.createdAt),
    failing_since: row.failingSince ? seconds(row.failingSince) : null,
    disabled: row.disabledAt ? { at: seconds(row.disabledAt), reason: row.disabledReason ?? '' } : null,
  };
}

/** The webhook endpoints of the broker a token acts for (extension). */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly imports: ImportService,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly cipher: WebhookSecretCipher,
    @Inject(WEBHOOK_URL_POLICY) private readonly policy: WebhookUrlPolicy,
  ) {}

  /** Registers an endpoint whose URL passes the policy now (it is checked again at every delivery). */
  async create(principal: OAuthPrincipal, body: CreateWebhookEndpoint): Promise<WebhookEndpointCreated> {
    const owner = await this.imports.callerBroker(principal);
    const url = parseWebhookUrl(body.url, this.policy);
    await deliveryAddress(url, this.policy).catch((error: unknown) => {
      if (error instanceof WebhookUrlRefused) throw DomainError.validation([`url: ${error.message}`]);
      throw error;
    });
    const secret = newWebhookSecret();
    const row = await this.endpoints.create(
      owner,
      `${principal.kind}:${principal.subject}`,
      {
        url: url.toString(),
        eventTypes: [...new Set(body.event_types)],
        secretCiphertext: this.cipher.encrypt(secret),
      },
      MAX_ENDPOINTS_PER_BROKER,
    );
    if (!row)
      throw new DomainError(
        ErrorCode.ValidationFailed,
        `A broker may register at most ${MAX_ENDPOINTS_PER_BROKER} endpoints`,
      );
    return { ...view(row), secret };
  }

  async list(principal: OAuthPrincipal): Promise<WebhookEndpointView[]> {
    const owner = await this.imports.callerBroker(principal);
    return (await this.endpoints.list(owner)).map(view);
  }

  async remove(principal: OAuthPrincipal, id: string): Promise<void> {
    const owner = await this.imports.callerBroker(principal);
    if (!(await this.endpoints.remove(owner, id))) throw DomainError.notFound(`No webhook endpoint ${id}`);
  }

  /** A new secret, shown once; the old one keeps signing beside it for 24 hours. */
  async rotateSecret(principal: OAuthPrincipal, id: string): Promise<WebhookEndpointCreated> {
    const owner = await this.imports.callerBroker(principal);
    const secret = newWebhookSecret();
    const row = await this.endpoints.rotateSecret(owner, id, this.cipher.encrypt(secret));
    if (!row) throw DomainError.notFound(`No webhook endpoint ${id}`);
    return { ...view(row), secret };
  }

  async attempts(principal: OAuthPrincipal, id: string): Promise<WebhookAttemptView[]> {
    const owner = await this.imports.callerBroker(principal);
    if (!(await this.endpoints.find(owner, id))) throw DomainError.notFound(`No webhook endpoint ${id}`);
    return (await this.endpoints.attempts(id)).map((attempt) => ({
      delivery_id: attempt.deliveryId,
      event_type: attempt.eventType,
      attempted_at: Math.floor(attempt.attemptedAt.getTime() / 1000),
      status_code: attempt.statusCode,
      error: attempt.error,
      duration_ms: attempt.durationMs,
    }));
  }
}
