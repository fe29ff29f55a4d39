import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { verifyImportWebhook } from './webhook-verifier.js';

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;

function delivery(secrets: string[], body: string, sentAt = new Date()) {
  return {
    'webhook-id': 'msg_42',
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': secrets.map((key) => new Webhook(key).sign('msg_42', sentAt, body)).join(' '),
  };
}

describe('verifyImportWebhook', () => {
  const body = JSON.stringify({
    type: 'import.processed',
    timestamp: '2026-11-27T12:00:00.000Z',
    data: {
      process_id: 'p',
      status: 'processed',
      type: 'CSV',
      broker: 'V1000',
      failure_reason: null,
      amount_of_records: 1,
    },
  });

  it('answers the event of a delivery signed with the secret, from plain headers or a Headers object', () => {
    const key = secret();
    expect(verifyImportWebhook(key, body, delivery([key], body)).data.status).toBe('processed');
    expect(verifyImportWebhook(key, Buffer.from(body), new Headers(delivery([key], body))).type).toBe(
      'import.processed',
    );
  });

  it('accepts either secret while a rotation signs with both', () => {
    const [current, previous] = [secret(), secret()];
    const headers = delivery([current, previous], body);
    expect(verifyImportWebhook(previous, body, headers).type).toBe('import.processed');
    expect(verifyImportWebhook(current, body, headers).type).toBe('import.processed');
  });

  it('refuses another secret, an altered body, missing headers and an old timestamp', () => {
    const key = secret();
    expect(() => verifyImportWebhook(secret(), body, delivery([key], body))).toThrow();
    expect(() => verifyImportWebhook(key, body.replace('V1000', 'V2000'), delivery([key], body))).toThrow();
    expect(() => verifyImportWebhook(key, body, {})).toThrow();
    expect(() =>
      verifyImportWebhook(key, body, delivery([key], body, new Date(Date.now() - 10 * 60_000))),
    ).toThrow();
  });
});
