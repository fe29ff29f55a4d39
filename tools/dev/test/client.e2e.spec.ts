import 'reflect-metadata';
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  mkdtempSync,
  openAsBlob,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { IMPORT_PIPELINE_STATUSES } from '@broker/contracts';
import {
  createBrokerClient,
  createCalcClient,
  createEmployeeClient,
  createImportClient,
  type FetchFunction,
  ClientCredentialsTokens,
  type ImportEvent,
  isApiErrorViewError,
  isMeldungenError,
  must,
  TokenRequestError,
} from '@broker/client';
import {
  type OidcAuthorizationServer,
  startOidcAuthorizationServer,
  writeGdvPortfolio,
} from '@broker/testing';
import {
  type ClientArea,
  CLIENT_DOCUMENTS,
  CLIENT_TYPES_DIR,
  clientTypesSource,
} from '../src/client-types.js';
import {
  DEMO_API_CLIENTS,
  DEMO_CALC_USER,
  DEMO_EMPLOYEES,
  DEMO_IMPORT_CLIENTS,
} from '../src/seed/demo-data.js';
import { nginxInstalled, type RunningGateway, startGateway } from './gateway-process.js';
import {
  type FaultyUpstream,
  faultyUpstream,
  installPackedClient,
  packClient,
  tarballFiles,
} from './packed-client.js';
import { type RunningProcess, runScript, startPlatformProcesses } from './run-cli.js';
import { createSuiteEnvironment, type SuiteEnvironment } from './suite-environment.js';

const describeWithNginx = nginxInstalled('client e2e') ? describe : describe.skip;

const IMPORT_ACCOUNT = {
  clientId: 'v1000-portal',
  clientSecret: randomBytes(16).toString('hex'),
  tenant: 'demo',
  brokerId: 'V1000',
};
const [API_CLIENT] = DEMO_API_CLIENTS;
const EMPLOYEE = DEMO_EMPLOYEES[0].code;
const CALCULATION = {
  policyholder: { birthdate: 482716800 },
  subject_matter: { policyholder: { civil_servant: false }, include_children: false },
};
/** Short, so the calculation test sees a token expire and the client log in again. */
const CALC_TOKEN_SECONDS = 4;

interface Sent {
  method: string;
  url: string;
  contentType: string | null;
  ifModifiedSince: string | null;
  status: number;
}

/** The network as the client uses it, with every request it sends and the status it got recorded. */
function recordingFetch(): { fetch: FetchFunction; sent: Sent[] } {
  const sent: Sent[] = [];
  return {
    sent,
    fetch: async (request) => {
      const entry = {
        method: request.method,
        url: request.url,
        contentType: request.headers.get('Content-Type'),
        ifModifiedSince: request.headers.get('If-Modified-Since'),
      };
      const response = await fetch(request);
      sent.push({ ...entry, status: response.status });
      return response;
    },
  };
}

/** What the README's portal example answers. */
interface PortalResult {
  imported: Record<string, number>;
  statuses: string[];
  importsInAll: number;
  importIds: string[];
  names: string[];
  customer: unknown;
  addressCount: number;
  countryCount: number;
  missing: string[];
  missingRequestId: string | null;
  cheapest: string | null;
  retried: { status: number; url: string }[];
}

const execFileAsync = promisify(execFile);

/** TypeScript's compiler, as a portal's project would run it. */
const TSC = require.resolve('typescript/bin/tsc');

/** The README's portal example, the code block after `<!-- example: portal -->`. */
function readmeExample(): string {
  const readme = readFileSync(path.join(CLIENT_TYPES_DIR, '../../README.md'), 'utf8');
  const code = /<!-- example: portal -->\s*```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!code) throw new Error('libs/client/README.md has no portal example');
  return code;
}

/** Type errors of a program that imports @broker/client as a user's package would (its built declarations). */
function typeErrors(file: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(__dirname, '../tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  const program = ts.createProgram([file], {
    ...config!.options,
    noEmit: true,
    strict: true,
    noImplicitAny: true,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('the generated types of @broker/client', () => {
  it('let a strict program send getKunde’s answer back to setKunde with fields changed, without a cast', () => {
    const file = path.join(__dirname, `.round-trip-${process.pid}.ts`);
    writeFileSync(
      file,
      [
        `import type { operations } from '${path.join(CLIENT_TYPES_DIR, 'employee-api')}';`,
        "type Read = operations['getKunde']['responses'][200]['content']['application/json'];",
        "type Write = operations['setKunde']['requestBody']['content']['application/json'];",
        '// A portal clears the occupation with null and changes the salutation; the rest goes back as read.',
        'export const sentBack = (read: Read): Write => ({',
        '  ...read,',
        "  Anrede: 'frau',",
        '  Person: { ...read.Person, Beruf: null },',
        '});',
      ].join('\n'),
    );
    try {
      expect(typeErrors(file)).toEqual([]);
    } finally {
      rmSync(file, { force: true });
    }
  });
});

describeWithNginx('@broker/client against the running services, through the gateway', () => {
  let suiteEnvironment: SuiteEnvironment;
  let oauth: OidcAuthorizationServer;
  let services: Record<'import' | 'worker' | 'calc' | 'broker' | 'admin', RunningProcess>;
  let gateway: RunningGateway;
  /** The calculation service behind a hop that can answer a call with 503, as an overloaded service would. */
  let calcHop: FaultyUpstream;
  /** Such a hop in front of the gateway, for area A (an edge that refuses a call, as an overloaded one does). */
  let importHop: FaultyUpstream;
  let workDir: string;
  let gdvFile: string;

  beforeAll(async () => {
    // As the development login provider: the portal accounts of the demo data (the README example's) beside the test's.
    oauth = await startOidcAuthorizationServer([IMPORT_ACCOUNT, ...DEMO_IMPORT_CLIENTS]);
    suiteEnvironment = await createSuiteEnvironment({
      ...oauth.importServiceEnv,
      CALC_TOKEN_TTL_SECONDS: String(CALC_TOKEN_SECONDS),
      LOG_LEVEL: 'warn',
      // As in development: webhooks to a portal on this machine.
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.0/8',
      IMPORT_WEBHOOK_ALLOW_HTTP: 'true',
    });
    const env = suiteEnvironment.env;
    const seeded = await runScript('tools/dev/dist/db-cli.js', ['seed'], env);
    if (seeded.code !== 0) throw new Error(`seeding failed: ${seeded.stderr}`);
    services = await startPlatformProcesses(env);
    calcHop = await faultyUpstream(services.calc.baseUrl);
    gateway = await startGateway(
      {
        ...services,
        calc: { ...services.calc, baseUrl: calcHop.url },
      },
      {
        GATEWAY_RATE_PER_SECOND: '200',
        GATEWAY_RATE_BURST: '400',
        GATEWAY_MAX_BODY_BYTES: String(1024 * 1024),
        GATEWAY_MAX_UPLOAD_BYTES: String(64 * 1024 * 1024),
      },
      undefined,
      new URL(oauth.issuer).host,
    );
    importHop = await faultyUpstream(gateway.url);
    workDir = mkdtempSync(path.join(tmpdir(), 'client-e2e-'));
    gdvFile = path.join(workDir, 'bestand.gdv');
    await writeGdvPortfolio(createWriteStream(gdvFile), { contracts: 200 });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(Object.values(services ?? {}).map((service) => service.terminate()));
    gateway?.stop();
    await calcHop?.close();
    await importHop?.close();
    await suiteEnvironment?.cleanup();
    await oauth?.close();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  const importClient = (fetch?: FetchFunction, clientSecret = IMPORT_ACCOUNT.clientSecret) =>
    createImportClient({
      baseUrl: `${gateway.url}/api/v1`,
      auth: { credentials: { tokenUrl: oauth.tokenUrl, clientId: IMPORT_ACCOUNT.clientId, clientSecret } },
      fetch,
    });
  const employeeBase = () => `${gateway.url}/service/demo/employee/1.0/rest`;

  it('has the types the served documents give (regenerate with pnpm openapi:client)', async () => {
    const processOf: Record<ClientArea, RunningProcess> = {
      import: services.import,
      calc: services.calc,
      employee: services.broker,
      broker: services.broker,
      admin: services.admin,
    };
    for (const [area, document] of Object.entries(CLIENT_DOCUMENTS) as [
      ClientArea,
      (typeof CLIENT_DOCUMENTS)[ClientArea],
    ][]) {
      const served = (await (await fetch(`${processOf[area].baseUrl}${document.path}`)).json()) as object;
      const committed = readFileSync(path.join(CLIENT_TYPES_DIR, document.file), 'utf8');
      expect({ file: document.file, source: await clientTypesSource(area, served) }).toEqual({
        file: document.file,
        source: committed,
      });
    }
  });

  it('installs the packed client outside the workspace, and runs the README’s example there through the gateway', async () => {
    const portalDir = mkdtempSync(path.join(tmpdir(), 'portal-example-'));
    try {
      const tarball = packClient(portalDir);
      const packed = tarballFiles(tarball);
      expect(packed).toEqual(expect.arrayContaining(['package/dist/index.js', 'package/dist/index.d.ts']));
      expect(
        packed.filter((file) => /\.(map|tsbuildinfo|ts)$/.test(file) && !file.endsWith('.d.ts')),
      ).toEqual([]);
      expect(packed.filter((file) => /\.spec\./.test(file))).toEqual([]);
      installPackedClient(portalDir, tarball);
      writeFileSync(path.join(portalDir, 'portal.ts'), readmeExample());
      writeFileSync(
        path.join(portalDir, 'main.ts'),
        "import { runPortal } from './portal';\n" +
          'runPortal(JSON.parse(process.argv[2]!)).then((result) => console.log(JSON.stringify(result)));\n',
      );
      const compiled = spawnSync(
        process.execPath,
        [TSC, '--strict', '--module', 'nodenext', '--target', 'es2023', '--types', 'node', 'main.ts'],
        { cwd: portalDir, encoding: 'utf8' },
      );
      expect(compiled.stdout + compiled.stderr).toBe('');

      // Two imports of the broker before the example's, so its list has more than one page of two.
      const earlier = importClient();
      for (let count = 0; count < 2; count++)
        await earlier.waitForEnd(await earlier.upload(gdvFile, { companies: ['9999'] }), { intervalMs: 300 });
      calcHop.refuseNextCallTo('/api/v1/calculate/private-liability');
      const settings = {
        gateway: gateway.url,
        tenant: 'demo',
        employee: EMPLOYEE,
        apiId: API_CLIENT.apiId,
        apiKey: API_CLIENT.apiKey,
        // The development token endpoint, through the gateway, as `pnpm start` serves it.
        oauth: {
          tokenUrl: `${gateway.url}/dev/oauth/token`,
          clientId: DEMO_IMPORT_CLIENTS[0].clientId,
          clientSecret: DEMO_IMPORT_CLIENTS[0].clientSecret,
        },
        calc: { username: DEMO_CALC_USER.username, password: DEMO_CALC_USER.password },
        gdvFile,
        companies: ['9999'],
      };
      // Not spawnSync: the authorization server the example gets its tokens from runs in this process.
      const run = await execFileAsync(process.execPath, ['main.js', JSON.stringify(settings)], {
        cwd: portalDir,
        encoding: 'utf8',
        timeout: 90_000,
      });
      expect(run.stderr).toBe('');
      const result = JSON.parse(run.stdout) as PortalResult;
      expect(result.statuses.at(-1)).toBe('processed');
      expect(result.imported).toMatchObject({ contractsWritten: 200 });
      expect(result.importIds.length).toBe(result.importsInAll);
      expect(result.importsInAll).toBeGreaterThan(2);
      expect(result.names.length).toBeGreaterThan(2);
      expect(result.customer).toHaveProperty('Typ');
      expect(result.addressCount).toBeGreaterThan(0);
      expect(result.countryCount).toBeGreaterThan(200);
      expect(result.missing).toEqual([expect.stringContaining('999999999')]);
      expect(result.missingRequestId).toMatch(/\S/);
      expect(typeof result.cheapest).toBe('string');
      // The calculation was refused once with 503 and Retry-After, and the example's call was sent again.
      expect(calcHop.refused.map((call) => call.path)).toEqual(['/api/v1/calculate/private-liability']);
      expect(result.retried).toEqual([
        { status: 503, url: `${gateway.url}/api/v1/calculate/private-liability` },
      ]);
    } finally {
      rmSync(portalDir, { recursive: true, force: true });
    }
    const accessLog = readFileSync(path.join(gateway.stateDir, 'access.log'), 'utf8');
    // Through the gateway: the three reads of one tick arrived there as one multi-call under interface version 1.0;
    // the search's pages and the process list's pages went one by one.
    expect(accessLog).toContain('"method":"POST","uri":"/service/demo/employee/1.0/rest","status":200');
    for (const uri of ['/dev/oauth/token', '/api/v1/import', '/api/login'])
      expect(accessLog).toContain(`"uri":"${uri}","status":200`);
    expect(accessLog).toContain('"uri":"/api/v1/calculate/private-liability","status":503');
    expect(accessLog).toContain('"uri":"/api/v1/calculate/private-liability","status":200');
  }, 180_000);

  it('area A: one token for every call until it expires; uploads from a Blob and from a stream', async () => {
    const network = recordingFetch();
    const client = importClient(network.fetch);
    const fromBlob = await client.upload(await openAsBlob(gdvFile), {
      companies: ['9999'],
      fileName: 'blob.gdv',
    });
    const fromStream = await client.upload(createReadStream(gdvFile), { companies: ['9999'] });
    const reports = await Promise.all(
      [fromBlob, fromStream].map((id) => client.waitForEnd(id, { intervalMs: 300 })),
    );
    expect(reports.map((report) => report.status)).toEqual(['processed', 'processed']);
    expect(reports[0].file.name).toBe('blob.gdv');
    const listed = await must(client.api.GET('/list'));
    expect(listed.map((process) => process.process_id)).toEqual(
      expect.arrayContaining([fromBlob, fromStream]),
    );
    expect(network.sent.filter((request) => request.url === oauth.tokenUrl)).toHaveLength(1);

    const refused = await importClient(undefined, 'wrong-secret')
      .upload(gdvFile)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TokenRequestError);
    expect(refused).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  }, 60_000);

  it('area A: a static token or a token provider; an upload refused with 503 repeated under one Idempotency-Key', async () => {
    const tokenUrl = `${gateway.url}/dev/oauth/token`;
    const { clientId, clientSecret } = DEMO_IMPORT_CLIENTS[0];
    const staticToken = await new ClientCredentialsTokens({ tokenUrl, clientId, clientSecret }).token();
    const withToken = createImportClient({ baseUrl: `${gateway.url}/api/v1`, auth: { token: staticToken } });
    expect((await withToken.api.GET('/list')).response.status).toBe(200);
    const provided: string[] = [];
    const withProvider = createImportClient({
      baseUrl: `${importHop.url}/api/v1`,
      auth: { token: () => (provided.push('asked'), staticToken) },
      retry: true,
    });
    importHop.refuseNextCallTo('/api/v1/import');
    const processId = await withProvider.upload(gdvFile, { companies: ['9999'] });
    expect(importHop.refused).toEqual([
      { path: '/api/v1/import', headers: expect.objectContaining({ 'idempotency-key': expect.any(String) }) },
    ]);
    expect((await withProvider.waitForEnd(processId, { intervalMs: 300 })).status).toBe('processed');
    // The repeat carried the same key: a third upload with that key answers the same process, importing nothing.
    const key = String(importHop.refused[0].headers['idempotency-key']);
    expect(await withProvider.upload(gdvFile, { companies: ['9999'], idempotencyKey: key })).toBe(processId);
    // The provider is asked at every call: it decides what it caches.
    const askedBefore = provided.length;
    await must(withProvider.api.GET('/list'));
    await must(withProvider.api.GET('/list'));
    expect(provided.length - askedBefore).toBe(2);

    const error = await must(
      createImportClient({ baseUrl: `${gateway.url}/api/v1`, auth: { token: 'not-a-token' } }).api.GET(
        '/list',
      ),
    ).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 401, requestId: expect.stringMatching(/\S/) });
  });

  it('area A (extension): webhook endpoints registered, listed, their secret rotated, attempts read, deleted', async () => {
    const { webhooks } = importClient();
    const created = await webhooks.register('http://127.0.0.1:9/hooks/imports', ['import.processed']);
    expect(created).toMatchObject({ url: 'http://127.0.0.1:9/hooks/imports', secret: expect.any(String) });
    expect((await webhooks.list()).map((endpoint) => endpoint.id)).toContain(created.id);
    const rotated = await webhooks.rotateSecret(created.id);
    expect(rotated.secret).not.toBe(created.secret);
    expect(await webhooks.attempts(created.id)).toEqual([]);
    await webhooks.delete(created.id);
    expect((await webhooks.list()).map((endpoint) => endpoint.id)).not.toContain(created.id);
    await expect(webhooks.delete(created.id)).rejects.toMatchObject({ status: 404 });
  });

  it('area A (extensions): events through the gateway to the end, resumed with Last-Event-ID; a dry run', async () => {
    const client = importClient();
    const processId = await client.upload(gdvFile, { companies: ['9999'] });
    const events: ImportEvent[] = [];
    for await (const event of client.events(processId)) events.push(event);
    const statuses = events.filter((event) => event.type === 'status').map((event) => event.data.status);
    expect(statuses).toEqual(
      IMPORT_PIPELINE_STATUSES.slice(0, IMPORT_PIPELINE_STATUSES.indexOf('processed') + 1),
    );
    expect(events.at(-1)).toMatchObject({
      type: 'end',
      data: { status: 'processed', progress: { percent: 100 } },
    });
    // Resumed after the fifth event: exactly the rest.
    const resumed: ImportEvent[] = [];
    for await (const event of client.events(processId, { lastEventId: events[4].id })) resumed.push(event);
    expect(resumed.map((event) => event.id)).toEqual(events.slice(5).map((event) => event.id));

    const dryRun = await client.dryRun(gdvFile, { companies: ['9999'] });
    expect(dryRun).toMatchObject({ dry_run: true, status: 'processed' });
    const report = await client.waitForEnd(processId);
    expect('counts' in dryRun && dryRun.counts.contractsUpdated).toBe(report.counts.contractsWritten);
  }, 60_000);

  it('area A: an upload the service refuses is an error with the area’s body', async () => {
    const empty = path.join(workDir, 'empty.gdv');
    writeFileSync(empty, '');
    const error = await importClient()
      .upload(empty, { companies: ['9999'] })
      .catch((caught: unknown) => caught);
    expect(isApiErrorViewError(error)).toBe(true);
    expect(error).toMatchObject({ status: 400, body: { message: expect.stringMatching(/empty/i) } });
  });

  it('area B: logs in once, and again when the token has expired', async () => {
    const network = recordingFetch();
    const calc = createCalcClient({ baseUrl: `${gateway.url}/api`, ...DEMO_CALC_USER, fetch: network.fetch });
    const calculate = () => must(calc.api.POST('/v1/calculate/private-liability', { body: CALCULATION }));
    await Promise.all([calculate(), calculate()]);
    await new Promise((resolve) => setTimeout(resolve, CALC_TOKEN_SECONDS * 1000 + 200));
    const offers = await calculate();
    expect(offers.calculation_result.success.length).toBeGreaterThan(0);
    const logins = network.sent.filter((request) => request.url.endsWith('/api/login'));
    expect(logins.map((login) => login.status)).toEqual([200, 200]);
    expect(network.sent.every((request) => request.status === 200)).toBe(true);
  }, 30_000);

  it('area B: a refused login is not repeated by every call (that would lock the user out)', async () => {
    const network = recordingFetch();
    const calc = createCalcClient({
      baseUrl: `${gateway.url}/api`,
      username: DEMO_CALC_USER.username,
      password: 'not-the-password',
      fetch: network.fetch,
    });
    const attempts = await Promise.all(
      [1, 2, 3].map(() =>
        must(calc.api.POST('/v1/calculate/private-liability', { body: CALCULATION })).catch(
          (error: unknown) => error,
        ),
      ),
    );
    const again = await must(calc.api.POST('/v1/calculate/private-liability', { body: CALCULATION })).catch(
      (error: unknown) => error,
    );
    for (const error of [...attempts, again]) expect(isApiErrorViewError(error) && error.status).toBe(401);
    expect(network.sent.map((request) => new URL(request.url).pathname)).toEqual(['/api/login']);
  });

  it('area C: calls of one tick go as one multi-call, a failing part is that call’s error', async () => {
    const network = recordingFetch();
    const employee = createEmployeeClient({
      baseUrl: employeeBase(),
      ...API_CLIENT,
      fetch: network.fetch,
      cache: false,
    });
    const ma = EMPLOYEE;
    const [hits, missing, salutations] = await Promise.all([
      employee.api.GET('/{ma}/kunden/_search', { params: { path: { ma }, query: { q: 'a', size: 5 } } }),
      employee.api.GET('/{ma}/kunden/{customerId}', { params: { path: { ma, customerId: '987654321' } } }),
      employee.api.GET('/anreden'),
    ]);
    expect(network.sent).toEqual([
      expect.objectContaining({
        method: 'POST',
        url: employeeBase(),
        contentType: expect.stringMatching(/^multipart\/related; boundary=/),
        status: 200,
      }),
    ]);
    expect(hits.response.headers.get('X-Svc-Total')).toMatch(/^\d+$/);
    expect(hits.data!.length).toBeGreaterThan(0);
    expect(missing.response.status).toBe(404);
    // The error body is typed as the document declares it: Meldungen, or the text of the 500 fault page.
    expect(typeof missing.error === 'object' && missing.error.Meldungen).toEqual([expect.any(String)]);
    expect(salutations.data!.map((item) => item.Value)).toEqual(expect.arrayContaining(['herr', 'frau']));

    const failed = await must(
      employee.api.GET('/{ma}/kunden/{customerId}', { params: { path: { ma, customerId: '987654321' } } }),
    ).catch((error: unknown) => error);
    expect(isMeldungenError(failed) && failed.status).toBe(404);
  });

  it('area C: the broker service writes and reads in one batch, in order', async () => {
    const network = recordingFetch();
    const broker = createBrokerClient({
      baseUrl: `${gateway.url}/service/demo/broker/1.0/rest`,
      ...API_CLIENT,
      fetch: network.fetch,
    });
    const city = `Bremen-${randomBytes(3).toString('hex')}`;
    const [updated, companies] = await Promise.all([
      broker.api.PATCH('/vermittler/{vmt}', {
        params: { path: { vmt: 'V1003' } },
        body: { Adresse: { Ort: city } },
      }),
      broker.api.GET('/{vmt}/gesellschaften', { params: { path: { vmt: 'V1003' } } }),
    ]);
    expect(network.sent).toHaveLength(1);
    expect(updated.response.status).toBe(200);
    expect(JSON.stringify(updated.data)).toContain(city);
    expect(Array.isArray(companies.data)).toBe(true);
  });

  it('area C: more calls than a multi-call takes go as several, one after the other, in the order made', async () => {
    const network = recordingFetch();
    const broker = createBrokerClient({
      baseUrl: `${gateway.url}/service/demo/broker/1.0/rest`,
      ...API_CLIENT,
      fetch: network.fetch,
    });
    const cities = Array.from({ length: 101 }, (_, index) => `Ort-${index}`);
    const answers = await Promise.all(
      cities.map((city) =>
        broker.api.PATCH('/vermittler/{vmt}', {
          params: { path: { vmt: 'V1003' } },
          body: { Adresse: { Ort: city } },
        }),
      ),
    );
    expect(answers.map((answer) => answer.response.status)).toEqual(cities.map(() => 200));
    expect(network.sent.map((request) => request.contentType?.split(';')[0])).toEqual([
      'multipart/related',
      'application/json',
    ]);
    const { data } = await broker.api.PATCH('/vermittler/{vmt}', {
      params: { path: { vmt: 'V1003' } },
      body: {},
    });
    expect(JSON.stringify(data)).toContain('"Ort-100"');
  });

  it('area C: a call aborted before its batch is sent is left out of it', async () => {
    const network = recordingFetch();
    const employee = createEmployeeClient({
      baseUrl: employeeBase(),
      ...API_CLIENT,
      fetch: network.fetch,
      cache: false,
    });
    const abort = new AbortController();
    const [aborted, kept] = await Promise.allSettled([
      employee.api.GET('/anreden', { signal: abort.signal }),
      employee.api.GET('/adresstypen'),
      Promise.resolve().then(() => abort.abort()),
    ]);
    expect(aborted).toMatchObject({ status: 'rejected', reason: { name: 'AbortError' } });
    expect(kept).toMatchObject({ status: 'fulfilled', value: { response: { status: 200 } } });
    expect(network.sent.map((request) => new URL(request.url).pathname)).toEqual([
      '/service/demo/employee/1.0/rest/adresstypen',
    ]);
  });

  it('area C: revalidates a cached list instead of reading it again, and answers from the cache on 304', async () => {
    const network = recordingFetch();
    const employee = createEmployeeClient({ baseUrl: employeeBase(), ...API_CLIENT, fetch: network.fetch });
    const first = await must(employee.api.GET('/laender'));
    const second = await employee.api.GET('/laender');
    expect(second.response.status).toBe(200);
    expect(second.data).toEqual(first);
    expect(
      network.sent.map(({ ifModifiedSince, status }) => ({ revalidated: ifModifiedSince !== null, status })),
    ).toEqual([
      { revalidated: false, status: 200 },
      { revalidated: true, status: 304 },
    ]);
  });

  it('area C: signs on the server’s clock when the local one is off, and with the OTP', async () => {
    const network = recordingFetch();
    const lateClock = createEmployeeClient({
      baseUrl: employeeBase(),
      ...API_CLIENT,
      now: () => Date.now() - 10 * 60_000,
      fetch: network.fetch,
    });
    expect((await lateClock.api.GET('/anreden')).response.status).toBe(200);
    expect((await lateClock.api.GET('/adresstypen')).response.status).toBe(200);
    // Refused once for the clock, then signed on the server's time from then on.
    expect(network.sent.map((request) => request.status)).toEqual([400, 200, 200]);

    const unbatched = createEmployeeClient({
      baseUrl: employeeBase(),
      ...API_CLIENT,
      batch: false,
      now: () => Date.now() + 5 * 60_000,
    });
    // Three calls in flight before any answer told the clock: each is signed again on its own.
    const paths = ['/anreden', '/adresstypen', '/kontaktarten'] as const;
    const answers = await Promise.all(paths.map((path) => unbatched.api.GET(path)));
    expect(answers.map((answer) => answer.response.status)).toEqual([200, 200, 200]);

    const otp = createEmployeeClient({ baseUrl: employeeBase(), ...API_CLIENT, proof: 'otp' });
    expect((await otp.api.GET('/kontaktarten')).response.status).toBe(200);
  });
});
