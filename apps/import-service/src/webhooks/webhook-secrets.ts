import { randomBytes } from 'node:crypto';
import { ApiKeyCipher } from '@broker/auth';

/** A new signing secret: `whsec_` and 32 random bytes in base64, as Standard Webhooks writes them. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The endpoints' signing secrets, stored encrypted (AES-256-GCM with IMPORT_WEBHOOK_ENCRYPTION_KEY). */
export class WebhookSecretCipher extends ApiKeyCipher {}
