import { Webhook } from 'standardwebhooks';
import type { components } from './generated/import-api.js';

/** The body of a webhook delivery of the import service (extension; Standard Webhooks 1.0). */
export type ImportWebhookEvent = components['schemas']['ImportWebhookEvent'];

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

/**
 * Verifies a delivery with the endpoint's secret (`whsec_...`) and answers its event: the signature over
 * `webhook-id.webhook-timestamp.body` (any of the signatures sent, so both secrets during a rotation), and a
 * timestamp within 5 minutes of now. Throws (standardwebhooks' WebhookVerificationError) otherwise. Pass the body
 * exactly as received (not parsed and serialised again); a `webhook-id` seen before is a repeated delivery.
 */
export function verifyImportWebhook(
  secret: string,
  body: string | Buffer,
  headers: HeaderSource,
): ImportWebhookEvent {
  const read = (name: string) => {
    const value = headers instanceof Headers ? headers.get(name) : headers[name];
    return (Array.isArray(value) ? value[0] : value) ?? '';
  };
  return new Webhook(secret).verify(body, {
    'webhook-id': read('webhook-id'),
    'webhook-timestamp': read('webhook-timestamp'),
    'webhook-signature': read('webhook-signature'),
  }) as ImportWebhookEvent;
}
