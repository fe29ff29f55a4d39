import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { FIXTURE_API_CLIENTS, svcOtpHeaders } from './employee-fixture.js';
import { type EmployeeTestService, startEmployeeTestService } from './employee-support.js';
import { answerParts, asBuffer } from './multipart.js';

const README = readFileSync(path.join(__dirname, '../README.md'), 'utf8');

/** The HTTP request of the README's fenced block right below `heading`: request line, headers, body. */
function readmeRequest(heading: string) {
  const section = README.slice(README.indexOf(`\n${heading}\n`));
  const block = /\n```\n([\s\S]*?)\n```\n/.exec(section)?.[1];
  if (!block) throw new Error(`no example below ${heading}`);
  const [head, ...body] = block.split('\n\n');
  const [requestLine, ...headerLines] = head.split('\n');
  const [method, target] = requestLine.split(' ');
  const headers = Object.fromEntries(
    headerLines.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
  );
  // Written with LF in the README, sent with CRLF as HTTP and multipart require.
  return { method, target, headers, body: `${body.join('\n\n')}\n`.replaceAll('\n', '\r\n') };
}

describe('the examples of the broker service README, sent as written', () => {
  let service: EmployeeTestService;
  beforeAll(async () => {
    service = await startEmployeeTestService();
  });
  afterAll(() => service?.close());

  it('Multi-call: both calls run, the PATCH changes the broker (credentials are the test client’s)', async () => {
    const example = readmeRequest('## Multi-call');
    expect(example.method).toBe('POST');
    const response = await asBuffer(
      request(service.app.getHttpServer() as App)
        .post(example.target)
        .set('Content-Type', example.headers['Content-Type'])
        .set(svcOtpHeaders(FIXTURE_API_CLIENTS.main))
        .send(example.body),
    ).expect(200);

    const parts = answerParts(response.headers['content-type'], response.body as Buffer);
    expect(parts.map((part) => part.headers['x-svc-request-id'])).toEqual(['<part-1>', '<part-2>']);
    expect([200, 304]).toContain(parts[0].status);
    expect(parts[1].status).toBe(200);
    const { rows } = await service.db.query<{ city: string }>(
      "SELECT city FROM broker.broker WHERE broker_number = 'V1003'",
    );
    expect(rows[0].city).toBe('Bremen');
  });
});
