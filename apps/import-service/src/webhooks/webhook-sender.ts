import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { deliveryAddress, WebhookUrlRefused, type WebhookUrlPolicy } from './webhook-url.js';

/** How long a receiver has to answer a delivery. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Of a receiver's answer, only the status is kept; its body is read up to this and dropped. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface SignedMessage {
  /** `webhook-id`: the same on every attempt of one delivery. */
  id: string;
  body: string;
  /** Current secret first; a rotated-out one signs too while it is valid. */
  secrets: string[];
}

export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  ok: boolean;
}

/**
 * One delivery attempt per Standard Webhooks 1.0: a JSON POST with `webhook-id`, `webhook-timestamp` (now, in
 * seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of id.timestamp.body>` per secret, space-separated).
 * The connection goes to the address checked against the policy just now; redirects are not followed (a 3xx is a
 * failure); at most DELIVERY_TIMEOUT_MS. Only a 2xx counts as delivered.
 */
export async function sendWebhook(
  url: URL,
  message: SignedMessage,
  policy: WebhookUrlPolicy,
): Promise<AttemptResult> {
  const started = Date.now();
  const result = (statusCode: number | null, error: string | null): AttemptResult => ({
    statusCode,
    error,
    durationMs: Date.now() - started,
    ok: statusCode !== null && statusCode >= 200 && statusCode < 300,
  });
  let target: { address: string; family: 4 | 6 };
  try {
    target = await deliveryAddress(url, policy);
  } catch (error) {
    if (error instanceof WebhookUrlRefused) return result(null, error.message);
    throw error;
  }
  const timestamp = new Date();
  const signature = message.secrets
    .map((secret) => new Webhook(secret).sign(message.id, timestamp, message.body))
    .join(' ');
  const lookup: LookupFunction = (_host, options, done) => {
    if ((options as { all?: boolean }).all) done(null, [target]);
    else done(null, target.address, target.family);
  };
  return new Promise((resolve) => {
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      {
        method: 'POST',
        lookup,
        timeout: DELIVERY_TIMEOUT_MS,
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'broker-platform-webhooks/1',
          'webhook-id': message.id,
          'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
          'webhook-signature': signature,
        },
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        response.on('close', () => resolve(result(response.statusCode ?? null, null)));
        response.on('error', () => resolve(result(response.statusCode ?? null, null)));
      },
    );
    const deadline = setTimeout(
      () => request.destroy(new Error(`no answer within ${DELIVERY_TIMEOUT_MS} ms`)),
      DELIVERY_TIMEOUT_MS,
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${DELIVERY_TIMEOUT_MS} ms`)));
    request.on('error', (error) => resolve(result(null, error.message.slice(0, 500))));
    request.on('close', () => clearTimeout(deadline));
    request.end(message.body);
  });
}
