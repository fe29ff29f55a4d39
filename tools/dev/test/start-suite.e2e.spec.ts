import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createEmployeeClient, must } from '@broker/client';
import { type APIResponse, request } from 'playwright-core';
import { findFreePort } from '@broker/local-services';
import { createEmptyDatabase, type TestDatabase, testRedisUrl, waitFor } from '@broker/testing';
import { nginxInstalled } from './gateway-process.js';
import { REPO_ROOT } from './run-cli.js';

const describeWithNginx = nginxInstalled('start-suite e2e') ? describe : describe.skip;

/** `pnpm start` as a newcomer sees it: a short summary last, the logs in files, and the gateway in front. */
describeWithNginx('pnpm start (the Quick start’s suite)', () => {
  let database: TestDatabase;
  let suite: ChildProcess;
  let output = '';
  let gatewayPort: number;
  let importPort: number;
  let loginPort: number;
  let mailboxPort: number;

  beforeAll(async () => {
    database = await createEmptyDatabase();
    const ports = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map(() => findFreePort()));
    gatewayPort = ports[4]!;
    importPort = ports[0]!;
    loginPort = ports[6]!;
    mailboxPort = ports[7]!;
    suite = spawn(process.execPath, [path.join(REPO_ROOT, 'tools/dev/dist/start-suite.js')], {
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: database.url,
        REDIS_URL: testRedisUrl(),
        IMPORT_PORT: String(ports[0]),
        IMPORT_WORKER_PORT: String(ports[1]),
        CALC_PORT: String(ports[2]),
        BROKER_PORT: String(ports[3]),
        ADMIN_PORT: String(ports[5]),
        GATEWAY_PORT: String(gatewayPort),
        DEV_LOGIN_PORT: String(ports[6]),
        DEV_MAILBOX_PORT: String(ports[7]),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    suite.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    suite.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitFor(
      () => output.includes('Press Ctrl+C to stop') || undefined,
      90_000,
      () => output,
    );
  }, 120_000);

  afterAll(async () => {
    if (suite && suite.exitCode === null) {
      const exited = new Promise((resolve) => suite.once('exit', resolve));
      suite.kill('SIGTERM');
      await exited;
    }
    await database?.drop();
  }, 60_000);

  it('ends its output with the summary, the processes’ JSON logs going to files', () => {
    const summary = output.slice(output.indexOf('The broker platform is running:'));
    expect(summary).toContain(
      `Gateway (nginx, deploy/gateway): http://127.0.0.1:${gatewayPort}/api/v1/..., /api/..., /service/..., ` +
        '/admin/v1/... (access log .local/gateway/access.log, its errors in .local/logs/gateway.log)',
    );
    expect(summary).toContain('Logs (JSON lines): .local/logs/<process>.log');
    // The links of mails and SMS lead through the gateway, whatever BROKER_PORT is.
    expect(summary).toContain(
      `Customer pages (the links in mails and SMS): http://127.0.0.1:${gatewayPort}/service/{tenant}/...`,
    );
    expect(output).not.toMatch(/^\{"level"/m);
  });

  it('lets webhooks go to a receiver on this machine in development (loopback, plain http)', async () => {
    const token = execFileSync(process.execPath, [path.join(REPO_ROOT, 'tools/dev/dist/dev-token.js')], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, DEV_LOGIN_PORT: String(loginPort) },
      encoding: 'utf8',
    }).trim();
    const answer = await fetch(`http://127.0.0.1:${importPort}/api/v1/webhooks`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks/imports', event_types: ['import.processed'] }),
    });
    expect({ status: answer.status, body: await answer.json() }).toMatchObject({
      status: 201,
      body: { url: 'http://127.0.0.1:9/hooks/imports' },
    });
  });

  it('answers the client-credentials grant at the development token endpoint, through the gateway', async () => {
    const tokenUrl = `http://127.0.0.1:${gatewayPort}/dev/oauth/token`;
    expect(output).toContain(
      `Development token endpoint (area A, client credentials): ${tokenUrl} (demo-v1000 / demo-v1000-secret`,
    );
    const grant = (secret: string) =>
      fetch(tokenUrl, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from(`demo-v1000:${secret}`).toString('base64')}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials&scope=service.imports',
      });
    const refused = await grant('wrong');
    expect({ status: refused.status, body: await refused.json() }).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
    const granted = await grant('demo-v1000-secret');
    const { access_token: token } = (await granted.json()) as { access_token: string };
    const listed = await fetch(`http://127.0.0.1:${gatewayPort}/api/v1/list`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(listed.status).toBe(200);
    expect(Array.isArray(await listed.json())).toBe(true);
  });

  it('keeps the mail and SMS the broker service sends in the development mailbox, on a page and in a log', async () => {
    const mailbox = `http://127.0.0.1:${mailboxPort}/`;
    expect(output).toContain(
      `Mail and SMS (development mailbox; nothing leaves this machine): ${mailbox} and .local/logs/messages.log`,
    );
    const employee = createEmployeeClient({
      baseUrl: `http://127.0.0.1:${gatewayPort}/service/demo/employee/1.0/rest`,
      apiId: 'demo-api',
      apiKey: 'demo-api-key',
    });
    const [customer] = await must(
      employee.api.GET('/{ma}/kunden/_search', {
        params: { path: { ma: '01_01' }, query: { q: 'Julia Müller' } },
      }),
    );
    const send = (Kommunikationsweg: 'email' | 'sms', Kommunikationsadresse: string) =>
      must(
        employee.api.POST('/{ma}/kunden/unterschriftenlinks/_senden', {
          params: { path: { ma: '01_01' } },
          body: { Art: 'maklervollmacht', Kommunikationsweg, Kommunikationsadresse, KundeId: customer.Id },
        }),
      );
    await send('email', 'julia.mailbox@example.com');
    await send('sms', '+49 171 7654321');
    const messages = await waitFor(async () => {
      const caught = (await (await fetch(`${mailbox}messages.json`)).json()) as {
        channel: string;
        to: string;
        text: string;
      }[];
      const ours = caught.filter((message) =>
        ['julia.mailbox@example.com', '+491717654321'].includes(message.to),
      );
      return ours.length === 2 ? ours : undefined;
    }, 30_000);
    // The links lead through the gateway.
    for (const message of messages)
      expect(message.text).toContain(`http://127.0.0.1:${gatewayPort}/service/demo/unterschrift`);
    const pageAnswer = await fetch(mailbox);
    expect(pageAnswer.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await pageAnswer.text()).toContain('julia.mailbox@example.com');
    const log = readFileSync(path.join(REPO_ROOT, '.local/logs/messages.log'), 'utf8');
    expect(log).toContain('"to":"+491717654321"'); // the number as the service normalized it
  });

  it('serves the operator console, logged in at the development login provider', async () => {
    const consoleUrl = `http://127.0.0.1:${gatewayPort}/admin/console`;
    expect(output).toContain(`Operator console: ${consoleUrl}/ (development login at http://127.0.0.1:`);
    const browser = await request.newContext();
    try {
      const submit = async (page: APIResponse, form: Record<string, string>) => {
        const action = /<form method="post" action="([^"]+)"/.exec(await page.text())?.[1];
        if (!action) throw new Error(`No form at ${page.url()}`);
        return browser.post(new URL(action, page.url()).href, { form });
      };
      const login = await browser.get(`${consoleUrl}/`);
      const consent = await submit(login, { username: 'betrieb', password: 'betrieb-entwicklung' });
      const consolePage = await submit(consent, {});
      expect(consolePage.url()).toBe(`${consoleUrl}/`);
      expect(await consolePage.text()).toContain('<div id="root"></div>');
      expect(await (await browser.get(`${consoleUrl}/session`)).json()).toMatchObject({ role: 'operator' });
      const tenants = await browser.get(`${consoleUrl}/api/v1/tenants`);
      expect(
        ((await tenants.json()) as { items: { id: string }[] }).items.map((tenant) => tenant.id),
      ).toContain('demo');
    } finally {
      await browser.dispose();
    }
  });

  it('serves every area through its gateway, and an unknown path in JSON', async () => {
    const gateway = `http://127.0.0.1:${gatewayPort}`;
    for (const documentPath of [
      '/api/v1/openapi.json',
      '/api/doc/v1/swagger.json',
      '/service/demo/broker/v1/rest/openapi.json',
      '/admin/v1/openapi.json',
    ])
      expect({ documentPath, status: (await fetch(`${gateway}${documentPath}`)).status }).toEqual({
        documentPath,
        status: 200,
      });
    const unknown = await fetch(`${gateway}/nirgendwo`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ name: 'RouteNotFound', status: 404 });
  });
});
