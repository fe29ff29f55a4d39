import request from 'supertest';
import type { App } from 'supertest/types.js';
import type { EmployeeTestService } from './employee-support.js';

/** A browser's view of a customer page's form: the link token, the form's CSRF field and the cookie set with it. */
export interface OpenedForm {
  token: string;
  csrf: string;
  cookie: string;
}

export type PageClient = ReturnType<ReturnType<typeof customerPageClients>>;

let clientNumber = 0;

/**
 * Clients of a customer page (`page`: its absolute path), each from a client address of its own (the test
 * connects from a trusted proxy, loopback, and names the address in X-Forwarded-For).
 */
export function customerPageClients(service: EmployeeTestService, page: string) {
  return () => {
    const address = `203.0.113.${++clientNumber % 250}`;
    const server = () => request(service.app.getHttpServer() as App);
    const client = {
      address,
      get: (path: string) => server().get(path).set('X-Forwarded-For', address),
      post: (fields: Record<string, string>, cookie?: string) =>
        server()
          .post(page)
          .set('X-Forwarded-For', address)
          .set(cookie ? { Cookie: cookie } : {})
          .type('form')
          .send(fields),
      /** Opens the link's page (200 expected) and reads the form's CSRF field and cookie from it. */
      async open(token: string): Promise<OpenedForm> {
        const answer = await client.get(`${page}?token=${token}`).expect(200);
        const csrf = /name="csrf" value="([^"]+)"/.exec(answer.text)?.[1];
        const cookie = [answer.headers['set-cookie'] ?? []].flat()[0]?.split(';')[0];
        if (!csrf || !cookie) throw new Error(`No form on the page:\n${answer.text}`);
        return { token, csrf, cookie };
      },
      /** Posts the opened form with `fields`. */
      submit: (form: OpenedForm, fields: Record<string, string>) =>
        client.post({ token: form.token, csrf: form.csrf, ...fields }, form.cookie),
    };
    return client;
  };
}

/** The headers every customer page is sent with: HTML, a strict CSP, no framing, no referrer, never cached. */
export function expectPageSecurityHeaders(headers: Record<string, unknown>): void {
  expect(headers['content-type']).toBe('text/html; charset=utf-8');
  expect(headers['content-security-policy']).toContain("default-src 'none'; script-src 'self'");
  expect(headers).toMatchObject({
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  });
}
