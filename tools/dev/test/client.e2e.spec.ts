import 'reflect-metadata';
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
import ts from 'typescript';
import { IMPORT_PIPELINE_STATUSES } from '@broker/contracts';
import {
  createBrokerClient,
  createCalcClient,
  createEmployeeClient,
  createImportClient,
  type FetchFunction,
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
import { DEMO_API_CLIENTS, DEMO_CALC_USER, DEMO_EMPLOYEES } from '../src/seed/demo-data.js';
import { nginxInstalled, type RunningGateway, startGateway } from './gateway-process.js';
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
  names: string[];
  customer: unknown;
  addressCount: number;
  countryCount: number;
  missing: string[];
  cheapest: string | null;
}

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
  let workDir: string;
  let gdvFile: string;

  beforeAll(async () => {
    oauth = await startOidcAuthorizationServer([IMPORT_ACCOUNT]);
    suiteEnvironment = await createSuiteEnvironment({
      ...oauth.importServiceEnv,
      CALC_TOKEN_TTL_SECONDS: String(CALC_TOKEN_SECONDS),
      LOG_LEVEL: 'warn',
    });
    const env = suiteEnvironment.env;
    const seeded = await runScript('tools/dev/dist/db-cli.js', ['seed'], env);
    if (seeded.code !== 0) throw new Error(`seeding failed: ${seeded.stderr}`);
    services = await startPlatformProcesses(env);
    gateway = await startGateway(services, {
      GATEWAY_RATE_PER_SECOND: '200',
      GATEWAY_RATE_BURST: '400',
      GATEWAY_MAX_BODY_BYTES: String(1024 * 1024),
      GATEWAY_MAX_UPLOAD_BYTES: String(64 * 1024 * 1024),
    });
    workDir = mkdtempSync(path.join(tmpdir(), 'client-e2e-'));
    gdvFile = path.join(workDir, 'bestand.gdv');
    await writeGdvPortfolio(createWriteStream(gdvFile), { contracts: 200 });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(Object.values(services ?? {}).map((service) => service.terminate()));
    gateway?.stop();
    await suiteEnvironment?.cleanup();
    await oauth?.close();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  const importClient = (fetch?: FetchFunction, clientSecret = IMPORT_ACCOUNT.clientSecret) =>
    createImportClient({
      baseUrl: `${gateway.url}/api/v1`,
      credentials: { tokenUrl: oauth.tokenUrl, clientId: IMPORT_ACCOUNT.clientId, clientSecret },
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

  it('compiles the README’s portal example without a cast and runs it against all three areas', async () => {
    const exampleFile = path.join(__dirname, `.portal-example-${process.pid}.ts`);
    writeFileSync(exampleFile, readmeExample());
    try {
      expect(typeErrors(exampleFile)).toEqual([]);
      const { runPortal } = (await import(exampleFile)) as {
        runPortal(settings: object): Promise<PortalResult>;
      };
      const result = await runPortal({
        gateway: gateway.url,
        tenant: 'demo',
        employee: EMPLOYEE,
        apiId: API_CLIENT.apiId,
        apiKey: API_CLIENT.apiKey,
        oauth: {
          tokenUrl: oauth.tokenUrl,
          clientId: IMPORT_ACCOUNT.clientId,
          clientSecret: IMPORT_ACCOUNT.clientSecret,
        },
        calc: { username: DEMO_CALC_USER.username, password: DEMO_CALC_USER.password },
        gdvFile,
        companies: ['9999'],
      });
      expect(result.statuses.at(-1)).toBe('processed');
      expect(result.imported).toMatchObject({ contractsCreated: 200 });
      expect(result.names.length).toBeGreaterThan(0);
      expect(result.customer).toHaveProperty('Typ');
      expect(result.addressCount).toBeGreaterThan(0);
      expect(result.countryCount).toBeGreaterThan(200);
      expect(result.missing).toEqual([expect.stringContaining('999999999')]);
      expect(typeof result.cheapest).toBe('string');
    } finally {
      rmSync(exampleFile, { force: true });
    }
    // Through the gateway: the three reads of one tick arrived there as one multi-call under interface version 1.0.
    const accessLog = readFileSync(path.join(gateway.stateDir, 'access.log'), 'utf8');
    expect(accessLog).toContain('"method":"POST","uri":"/service/demo/employee/1.0/rest","status":200');
    for (const uri of ['/api/v1/import', '/api/v1/calculate/private-liability', '/api/login'])
      expect(accessLog).toContain(`"uri":"${uri}","status":200`);
  }, 60_000);

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
      employee.GET('/{ma}/kunden/_search', { params: { path: { ma }, query: { q: 'a', size: 5 } } }),
      employee.GET('/{ma}/kunden/{customerId}', { params: { path: { ma, customerId: '987654321' } } }),
      employee.GET('/anreden'),
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
      employee.GET('/{ma}/kunden/{customerId}', { params: { path: { ma, customerId: '987654321' } } }),
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
      broker.PATCH('/vermittler/{vmt}', {
        params: { path: { vmt: 'V1003' } },
        body: { Adresse: { Ort: city } },
      }),
      broker.GET('/{vmt}/gesellschaften', { params: { path: { vmt: 'V1003' } } }),
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
        broker.PATCH('/vermittler/{vmt}', {
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
    const { data } = await broker.PATCH('/vermittler/{vmt}', {
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
      employee.GET('/anreden', { signal: abort.signal }),
      employee.GET('/adresstypen'),
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
    const first = await must(employee.GET('/laender'));
    const second = await employee.GET('/laender');
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
    expect((await lateClock.GET('/anreden')).response.status).toBe(200);
    expect((await lateClock.GET('/adresstypen')).response.status).toBe(200);
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
    const answers = await Promise.all(paths.map((path) => unbatched.GET(path)));
    expect(answers.map((answer) => answer.response.status)).toEqual([200, 200, 200]);

    const otp = createEmployeeClient({ baseUrl: employeeBase(), ...API_CLIENT, proof: 'otp' });
    expect((await otp.GET('/kontaktarten')).response.status).toBe(200);
  });
});
