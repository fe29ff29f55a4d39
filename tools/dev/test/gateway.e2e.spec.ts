import { createWriteStream, openAsBlob, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { waitFor, writeGdvPortfolio } from '@broker/testing';
import { insertBrokerFixture } from '@broker/fixtures';
import { adminAllowedGeo, UPLOAD_FRAMING_BYTES } from '../src/gateway-config.js';
import {
  GATEWAY_HOSTS as HOSTS,
  nginxInstalled,
  type RunningGateway,
  startGateway,
} from './gateway-process.js';
import { type RunningProcess, startPlatformProcesses } from './run-cli.js';
import { createSuiteEnvironment, type SuiteEnvironment } from './suite-environment.js';

const describeWithNginx = nginxInstalled('gateway e2e') ? describe : describe.skip;

const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;
/** About 51 MiB of GDV: the issue asks for an upload of at least 50 MB through the gateway. */
const UPLOAD_CONTRACTS = 42_000;

interface ImportProcess {
  process_id: string;
  status: string;
  amount_of_records?: number;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

describeWithNginx('gateway (nginx) in front of the three areas', () => {
  let suiteEnvironment: SuiteEnvironment;
  let services: Record<'import' | 'worker' | 'calc' | 'broker' | 'admin', RunningProcess>;
  let gateway: RunningGateway;
  let gatewayPort: number;
  let stateDir: string;

  beforeAll(async () => {
    suiteEnvironment = await createSuiteEnvironment({ IMPORT_MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES) });
    const env = suiteEnvironment.env;
    await insertBrokerFixture(String(env.DATABASE_URL));
    services = await startPlatformProcesses(env, { ...env, LOG_LEVEL: 'warn' });
    gateway = await startGateway(services, {
      GATEWAY_RATE_PER_SECOND: '5',
      GATEWAY_RATE_BURST: '30',
      GATEWAY_MAX_BODY_BYTES: String(1024 * 1024),
      GATEWAY_MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES + UPLOAD_FRAMING_BYTES),
    });
    gatewayPort = gateway.port;
    stateDir = gateway.stateDir;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(Object.values(services ?? {}).map((service) => service.terminate()));
    gateway?.stop();
    await suiteEnvironment?.cleanup();
  });

  /** One request to the gateway; `host` picks the server block by name. */
  function send(
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: Buffer,
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        { host: '127.0.0.1', port: gatewayPort, method, path, headers },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
          );
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  const titleOf = (answer: Answer) => (JSON.parse(answer.body) as { info: { title: string } }).info.title;

  it('routes each area by path prefix, keeping the spec paths, and serves every OpenAPI document', async () => {
    const documents = await Promise.all([
      send('GET', '/api/v1/openapi.json'),
      send('GET', '/api/doc/v1/swagger.json'),
      send('GET', '/service/demo/employee/v1/rest/openapi.json'),
      send('GET', '/service/demo/broker/v1/rest/openapi.json'),
      send('GET', '/admin/v1/openapi.json'),
    ]);
    expect(documents.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(documents.map(titleOf)).toEqual([
      'Broker platform: import service (area A)',
      'Broker platform: calculation service (area B)',
      'Broker platform: employee service (area C)',
      'Broker platform: broker service (area C)',
      'Broker platform: administration (extension)',
    ]);
    expect((await send('GET', '/admin/v1/tenants')).status).toBe(401);
    expect(
      (await send('POST', '/api/login', { 'Content-Type': 'application/json' }, Buffer.from('{}'))).status,
    ).toBe(400);
    expect((await send('GET', '/api/v1/list')).status).toBe(401);
    const unknown = await send('GET', '/somewhere/else');
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toBe('application/json');
    expect(JSON.parse(unknown.body)).toEqual({
      name: 'RouteNotFound',
      message: 'No resource at this path',
      code: 1201,
      status: 404,
    });
  });

  it('routes by host name, and keeps the processes’ metrics and probes inside', async () => {
    const calcDocument = await send('GET', '/api/doc/v1/swagger.json', { Host: HOSTS.calc });
    expect(titleOf(calcDocument)).toBe('Broker platform: calculation service (area B)');
    expect((await send('GET', '/api/doc/v1/swagger.json', { Host: HOSTS.import })).status).toBe(404);
    expect(titleOf(await send('GET', '/api/v1/openapi.json', { Host: HOSTS.import }))).toBe(
      'Broker platform: import service (area A)',
    );
    expect(
      titleOf(await send('GET', '/service/demo/broker/v1/rest/openapi.json', { Host: HOSTS.broker })),
    ).toBe('Broker platform: broker service (area C)');
    for (const host of Object.values(HOSTS))
      for (const path of ['/metrics', '/METRICS', '/Metrics/', '/health/ready', '/HEALTH/live'])
        expect({ host, path, status: (await send('GET', path, { Host: host })).status }).toEqual({
          host,
          path,
          status: 404,
        });
    expect((await send('GET', '/metrics')).status).toBe(404);
  });

  it('generates X-Request-ID or passes the caller’s on, into the service log and its own JSON access log', async () => {
    const generated = await send('GET', '/service/demo/broker/v1/rest/laender');
    const id = String(generated.headers['x-request-id']);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    const given = await send('GET', '/service/demo/broker/v1/rest/laender', {
      'X-Request-ID': 'portal-trace-4711',
    });
    expect(given.headers['x-request-id']).toBe('portal-trace-4711');
    await waitFor(
      () =>
        (services.broker.output().includes(`"id":"${id}"`) &&
          services.broker.output().includes('"id":"portal-trace-4711"')) ||
        undefined,
      5_000,
      () => services.broker.output(),
    );
    const accessLog = readFileSync(join(stateDir, 'access.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { request_id: string; status: number; uri: string });
    expect(accessLog).toContainEqual(
      expect.objectContaining({
        request_id: 'portal-trace-4711',
        uri: '/service/demo/broker/v1/rest/laender',
      }),
    );
  });

  it('streams an upload of more than 50 MB through to the import service, and the worker processes it', async () => {
    const file = join(stateDir, 'bestand.gdv');
    await writeGdvPortfolio(createWriteStream(file), { contracts: UPLOAD_CONTRACTS });
    expect(statSync(file).size).toBeGreaterThan(50 * 1024 * 1024);
    const authorization = { Authorization: `Bearer ${await suiteEnvironment.importToken()}` };
    const upload = async (headers: Record<string, string>, path = '/api/v1/import') => {
      const form = new FormData();
      form.append('companies[0]', '9999');
      form.append('file', await openAsBlob(file), 'bestand.gdv');
      const answer = await fetch(`http://127.0.0.1:${gatewayPort}${path}`, {
        method: 'POST',
        headers,
        body: form,
      });
      return { status: answer.status, body: (await answer.json()) as { process_id?: string } };
    };
    const once = { ...authorization, 'Idempotency-Key': 'bestand-51-mib' };
    const first = await upload(once);
    expect(first.status).toBe(200);
    const processId = String(first.body.process_id);

    // Polled through the gateway once a second, within its rate limit.
    const finished = await waitFor(
      async () => {
        const listed = await send('GET', '/api/v1/list', authorization);
        const processes = JSON.parse(listed.body) as ImportProcess[];
        const process = processes.find((candidate) => candidate.process_id === processId);
        return process && ['processed', 'failed'].includes(process.status) ? process : undefined;
      },
      150_000,
      () => services.worker.output(),
      1_000,
    );
    expect(finished).toMatchObject({ status: 'processed', amount_of_records: UPLOAD_CONTRACTS });
    // Answered before the file is read (the key's process; no valid token): the service drops the rest of the
    // file as it arrives, so the gateway, still sending it, never meets a closed connection (a 502). Every
    // spelling of the path the service routes as the upload is streamed as one (not held to the JSON limit).
    for (const path of ['/api/v1/import', '/api/v1/IMPORT', '/api/v1/Import/?dry_run=false']) {
      expect({ path, ...(await upload(once, path)) }).toEqual({
        path,
        status: 200,
        body: { process_id: processId },
      });
    }
    expect((await upload({ Authorization: 'Bearer not-a-token' })).status).toBe(401);
    const uploadEntry = readFileSync(join(stateDir, 'access.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { uri: string; status: number; bytes_in: number })
      .find((entry) => entry.uri === '/api/v1/import' && entry.status === 200);
    expect(uploadEntry?.bytes_in).toBeGreaterThan(50 * 1024 * 1024);
    // nginx warns whenever it buffers a request body to a file; streamed through, it never does.
    expect(gateway.output()).not.toContain('buffered to a temporary file');
  }, 180_000);

  it('routes a signing link to the broker service and keeps its token out of the access log', async () => {
    const token = 'Zm9vYmFyLXNpbmdsZS11c2UtdG9rZW4';
    const answer = await send('GET', `/service/demo/unterschrift?token=${token}&x=1`);
    // The broker service's signing page answers an unknown link with its own page.
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    await waitFor(
      () =>
        readFileSync(join(stateDir, 'access.log'), 'utf8').includes(String(answer.headers['x-request-id'])) ||
        undefined,
    );
    const accessLog = readFileSync(join(stateDir, 'access.log'), 'utf8');
    expect(accessLog).not.toContain(token);
    expect(accessLog).toContain('"uri":"/service/demo/unterschrift?token=[redacted]&x=1"');
  });

  it('answers a request it cannot read with a 4xx in the shape of the area it was for, not with its page', async () => {
    /** Sends `head` as it is (no client library would) and reads the answer to the connection's end. */
    const sendRaw = (head: string) =>
      new Promise<{ status: number; body: unknown }>((resolve, reject) => {
        const socket = connect(gatewayPort, '127.0.0.1');
        let received = '';
        socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
        socket.on('error', reject);
        socket.on('end', () => {
          const [statusLine, ...rest] = received.split('\r\n');
          const body = rest.join('\r\n').split('\r\n\r\n')[1];
          resolve({ status: Number(statusLine.split(' ')[1]), body: JSON.parse(body) as unknown });
        });
        socket.end(head);
      });
    const malformed = {
      name: 'MalformedRequest',
      message: 'The request is not valid HTTP/1.1: its framing or its path cannot be read',
      code: 1001,
      status: 400,
    };
    for (const framing of [
      'Transfer-Encoding: identity',
      'Transfer-Encoding: gzip, chunked',
      'Content-Length: abc',
    ]) {
      const answer = await sendRaw(`POST /api/v1/import HTTP/1.1\r\nHost: gateway\r\n${framing}\r\n\r\n`);
      expect({ framing, ...answer }).toEqual({ framing, status: 400, body: malformed });
    }
    expect(
      await sendRaw(
        `POST /service/demo/employee/v1/rest/kunden HTTP/1.1\r\nHost: gateway\r\nContent-Length: x\r\n\r\n`,
      ),
    ).toEqual({ status: 400, body: { Meldungen: [malformed.message] } });
    // What nginx reads no further: a request line or headers beyond its buffers.
    expect(await sendRaw(`GET /api/v1/list?q=${'x'.repeat(9000)} HTTP/1.1\r\nHost: gateway\r\n\r\n`)).toEqual(
      {
        status: 414,
        body: { name: 'ClientError', message: 'The request line is too long', code: 1900, status: 414 },
      },
    );
    expect(
      await sendRaw(`GET /service/demo/x HTTP/1.1\r\nHost: gateway\r\nX-Gross: ${'x'.repeat(9000)}\r\n\r\n`),
    ).toEqual({ status: 431, body: { Meldungen: ['The request headers are too large'] } });
  });

  it('answers an upload above the size limit with 413 itself, before it reaches the import service', async () => {
    // As curl sends large bodies: the headers first, the body only after 100 Continue, which never comes.
    const answer = await new Promise<Answer>((resolve, reject) => {
      const request = http.request({
        host: '127.0.0.1',
        port: gatewayPort,
        method: 'POST',
        path: '/api/v1/import',
        headers: {
          'Content-Type': 'multipart/form-data; boundary=x',
          'Content-Length': String(MAX_UPLOAD_BYTES + UPLOAD_FRAMING_BYTES + 1024),
          Expect: '100-continue',
        },
      });
      request.on('continue', () =>
        reject(new Error('the gateway asked for the body of an oversized upload')),
      );
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
          request.destroy();
        });
      });
      request.on('error', reject);
      request.flushHeaders();
    });
    expect(answer.status).toBe(413);
    // In the import service's error shape, not nginx's page.
    expect(answer.headers['content-type']).toBe('application/json');
    expect(JSON.parse(answer.body)).toEqual({
      name: 'PayloadTooLarge',
      message: 'The request body is too large',
      code: 1002,
      status: 413,
    });
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(answer.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(services.import.output()).not.toContain(answer.headers['x-request-id']);
  });

  it('keeps every credential a caller sends out of the services’ logs and the access log', async () => {
    const importToken = await suiteEnvironment.importToken();
    const credentials = {
      importToken,
      calcPassword: 'Kennwort-Gateway-4711',
      calcToken: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLW5vdC12YWxpZA',
      nonce: 'a1'.repeat(20),
      digest: 'b2'.repeat(20),
      otp: '93817264',
    };
    const json = { 'Content-Type': 'application/json' };
    const answers = await Promise.all([
      send('GET', '/api/v1/list', { Authorization: `Bearer ${importToken}` }),
      send(
        'POST',
        '/api/login',
        json,
        Buffer.from(JSON.stringify({ username: 'nobody', password: credentials.calcPassword })),
      ),
      send(
        'POST',
        '/api/v1/calculate/private-liability',
        { ...json, Authorisation: `Bearer ${credentials.calcToken}` },
        Buffer.from('{}'),
      ),
      send('GET', '/service/demo/employee/v1/rest/anreden', {
        'X-Svc-Api-Id': 'unknown-client',
        'X-Svc-Timestamp': new Date().toISOString(),
        'X-Svc-Nonce': credentials.nonce,
        'X-Svc-Digest': credentials.digest,
      }),
      send('GET', '/service/demo/employee/v1/rest/anreden', {
        'X-Svc-Api-Id': 'unknown-client',
        'X-Svc-Otp': credentials.otp,
      }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 401, 401, 404, 404]);
    const lastRequestId = String(answers[4].headers['x-request-id']);
    await waitFor(() => services.broker.output().includes(lastRequestId) || undefined);
    const logs = {
      import: services.import.output(),
      worker: services.worker.output(),
      calc: services.calc.output(),
      broker: services.broker.output(),
      access: readFileSync(join(stateDir, 'access.log'), 'utf8'),
    };
    // The headers are logged, with their values replaced: so the check below looks where they would be.
    expect(logs.import).toContain('"authorization":"[redacted]"');
    expect(logs.calc).toContain('"authorisation":"[redacted]"');
    expect(logs.broker).toContain('"x-svc-digest":"[redacted]"');
    expect(logs.broker).toContain('"x-svc-otp":"[redacted]"');
    for (const [log, text] of Object.entries(logs))
      for (const [credential, value] of Object.entries(credentials))
        expect({ log, credential, logged: text.includes(value) }).toEqual({ log, credential, logged: false });
  });

  // Rate 5/s with a burst of 30: the tests above stay within it, this one goes beyond.
  it('lets only ADMIN_ALLOWED_CIDRS reach the administration, in the shape of its errors, the other areas as before', async () => {
    const limits = {
      GATEWAY_RATE_PER_SECOND: '50',
      GATEWAY_RATE_BURST: '100',
      GATEWAY_MAX_BODY_BYTES: String(1024 * 1024),
      GATEWAY_MAX_UPLOAD_BYTES: String(1024 * 1024),
    };
    const restricted = await startGateway(services, {
      ...limits,
      ADMIN_ALLOWED_GEO: adminAllowedGeo('10.0.0.0/8, fd00::/8'),
    });
    try {
      const refused = await fetch(`${restricted.url}/admin/v1/openapi.json`);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({
        name: 'Forbidden',
        message: 'The administration is not reachable from this address',
        code: 1102,
        status: 403,
      });
      const console = await fetch(`${restricted.url}/admin/console/`);
      expect(console.status).toBe(403);
      expect(console.headers.get('content-security-policy')).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      const passed = await fetch(`${restricted.url}/api/v1/openapi.json`);
      expect(passed.status).toBe(200);
      // A service's answer keeps its own headers: the gateway adds none of its error answers' to it.
      expect(passed.headers.get('content-security-policy')).not.toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
    } finally {
      restricted.stop();
    }
    const allowed = await startGateway(services, {
      ...limits,
      ADMIN_ALLOWED_GEO: adminAllowedGeo('127.0.0.0/8'),
    });
    try {
      expect((await fetch(`${allowed.url}/admin/v1/openapi.json`)).status).toBe(200);
    } finally {
      allowed.stop();
    }
    expect(() => adminAllowedGeo('10.0.0.0/8; allow all')).toThrow(/is not an address range/);
    expect(() => adminAllowedGeo(' ')).toThrow(/ADMIN_ALLOWED_CIDRS is empty/);
    expect(adminAllowedGeo('any')).toBe('default 1;');
  });

  it('answers a burst from one client address beyond the rate with 429', async () => {
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const answers = await Promise.all(
      Array.from({ length: 80 }, () => send('GET', '/service/demo/broker/v1/rest/openapi.json')),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(10);
    // Area C's path: its shape, with the seconds to wait.
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused.headers['retry-after']).toBe('1');
    expect(JSON.parse(refused.body)).toEqual({
      Meldungen: ['Too many requests; try again after Retry-After seconds'],
    });
  });

  it('answers for a service that is down with 502 in its area’s shape and Retry-After (run last: it stops calc)', async () => {
    await services.calc.terminate();
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // the rate limit of the burst above
    const answer = await send('GET', '/api/doc/v1/swagger.json');
    expect(answer.status).toBe(502);
    expect(answer.headers['retry-after']).toBe('5');
    expect(JSON.parse(answer.body)).toEqual({
      name: 'DependencyUnavailable',
      message: 'The service is unavailable; try again after Retry-After seconds',
      code: 1501,
      status: 502,
    });
  });
});
