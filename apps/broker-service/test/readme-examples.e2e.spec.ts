import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import type { App } from 'supertest/types.js';
import { FIXTURE_API_CLIENTS, svcOtpHeaders } from './employee-fixture.js';
import { type EmployeeTestService, startEmployeeTestService } from './employee-support.js';
import { answerParts, asBuffer } from './multipart.js';

const README = readFileSync(path.join(__dirname, '../README.md'), 'utf8');
const ROOT_README = readFileSync(path.join(__dirname, '../../../README.md'), 'utf8');

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

describe('the examples of the READMEs that call the broker service, sent as written', () => {
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

  // The example's tools; a machine without them (the Quick start needs only Node) skips this one.
  const shellTools = ['bash', 'curl', 'openssl', 'sha1sum'].every(
    (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0,
  );

  (shellTools ? it : it.skip)(
    'README: the signed request from a shell (bash, openssl, sha1sum, curl; host and API client the test’s)',
    async () => {
      const script = /\n```sh\n(nonce=[\s\S]*?)\n```\n/.exec(ROOT_README)?.[1];
      if (!script) throw new Error('no shell example in the README');
      const server = service.app.getHttpServer() as Server;
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const { main } = FIXTURE_API_CLIENTS;
        const ours = script
          .replaceAll('http://localhost:3003', `http://127.0.0.1:${port}`)
          .replaceAll('demo-api-key', main.apiKey)
          .replaceAll('demo-api', main.apiId);
        const { stdout } = await promisify(execFile)('bash', [
          '-c',
          `set -euo pipefail\n${ours.replace('curl ', 'curl -sS --fail ')}`,
        ]);
        // curl --fail: a refused signature (any 4xx) fails the script.
        expect(Array.isArray(JSON.parse(stdout))).toBe(true);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  );
});
