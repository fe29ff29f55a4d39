import { mkdtempSync, openAsBlob, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { svcDigest, svcOtp } from '@broker/auth';
import { type OidcAuthorizationServer, startOidcAuthorizationServer } from '@broker/testing';
import { REPO_ROOT, type RunningProcess, runScript, startProcesses } from './run-cli.js';
import { createSuiteEnvironment, type SuiteEnvironment } from './suite-environment.js';

const CLI = 'libs/client/dist/admin-cli.js';
const OPERATOR = {
  clientId: 'pool-operator',
  clientSecret: 'operator-secret-0123456789',
  role: 'operator',
} as const;
const NORD_ADMIN = {
  clientId: 'nord-admin',
  clientSecret: 'nord-admin-secret-0123456789',
  role: 'tenant-admin',
  tenant: 'nord',
} as const;
const PASSWORD = 'Kiesel Abendrot Mondschein';

/**
 * A pool going into service from an empty database with `pnpm admin` only (the CLI on @broker/client's admin client,
 * tokens by the client-credentials grant of a real authorization server), and what it makes working in the other
 * areas' running processes at once: an API client signs area C requests by digest and OTP, a calculation user logs in,
 * an insurer is accepted by an import.
 */
describe('pnpm admin against the running administration service', () => {
  let oauth: OidcAuthorizationServer;
  let suite: SuiteEnvironment;
  let services: Record<'admin' | 'broker' | 'calc' | 'import', RunningProcess>;
  let workDir: string;
  let cliEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    oauth = await startOidcAuthorizationServer([OPERATOR, NORD_ADMIN]);
    suite = await createSuiteEnvironment({ ...oauth.adminServiceEnv, LOG_LEVEL: 'warn' });
    const migrated = await runScript('tools/dev/dist/db-cli.js', ['migrate'], suite.env);
    if (migrated.code !== 0) throw new Error(`migrating failed: ${migrated.stderr}`);
    const env = suite.env;
    services = await startProcesses({
      admin: { script: 'apps/admin-service/dist/main.js', env },
      broker: { script: 'apps/broker-service/dist/main.js', env },
      calc: { script: 'apps/calc-service/dist/main.js', env },
      import: { script: 'apps/import-service/dist/main.js', env },
    });
    workDir = mkdtempSync(path.join(tmpdir(), 'admin-cli-'));
    cliEnv = {
      ADMIN_URL: `${services.admin.baseUrl}/admin/v1`,
      ADMIN_CLIENT_ID: OPERATOR.clientId,
      ADMIN_CLIENT_SECRET: OPERATOR.clientSecret,
      ADMIN_TOKEN_URL: oauth.tokenUrl,
      ADMIN_TOKEN_RESOURCE: oauth.adminServiceEnv.ADMIN_OAUTH_AUDIENCE,
    };
  }, 120_000);

  afterAll(async () => {
    await Promise.all(Object.values(services ?? {}).map((service) => service.terminate()));
    await suite?.cleanup();
    await oauth?.close();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  const admin = (args: string[], env: NodeJS.ProcessEnv = cliEnv) => runScript(CLI, args, env);
  const json = async (args: string[]) => {
    const result = await admin([...args, '--json']);
    expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: '' });
    return JSON.parse(result.stdout) as Record<string, unknown>;
  };

  /** The CLI with `input` on its standard input (a password is never an argument). */
  const withInput = (args: string[], input: string) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [path.join(REPO_ROOT, CLI), ...args], {
        env: { PATH: process.env.PATH, ...cliEnv },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(input);
    });

  it('onboards a tenant, its brokers and an employee', async () => {
    expect((await admin(['tenant', 'create', 'nord', 'Nord Pool'])).stdout).toBe('Tenant nord created\n');
    expect(await json(['broker', 'create', 'nord', 'N1', 'Nord Eins'])).toMatchObject({
      number: 'N1',
      parent: null,
    });
    expect(await json(['broker', 'create', 'nord', 'N2', 'Nord Zwei', '--parent', 'N1'])).toMatchObject({
      parent: 'N1',
    });
    expect(
      await json(['employee', 'create', 'nord', 'N1', 'e_1', 'Eva Eins', '--email', 'eva@nord.example']),
    ).toMatchObject({ number: 'e_1', broker: 'N1', disabled: false });
    const escaped = await admin(['broker', 'create', 'nord', 'N7', 'Nord \u001b[2J\u202eSieben']);
    expect(escaped).toMatchObject({ code: 1 });
    expect(escaped.stderr).toContain('name must not contain control or text-direction characters');
    const listed = await admin(['broker', 'list', 'nord']);
    expect(listed.stdout).toContain('N2\tN1\tNord Zwei');
  });

  it('makes an API client whose key signs area C requests at once, by digest and by OTP', async () => {
    const created = await json(['api-client', 'create', 'nord', 'N1', '--api-id', 'nord-portal']);
    const apiKey = String(created.api_key);
    expect(created.otp_uri).toMatch(/^otpauth:\/\/totp\//);
    const started = Date.now();
    const laender = `${services.broker.baseUrl}/service/nord/broker/1.0/rest/laender`;
    const nonce = 'a'.repeat(40);
    const timestamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const byDigest = await fetch(laender, {
      headers: {
        'X-Svc-Api-Id': 'nord-portal',
        'X-Svc-Timestamp': timestamp,
        'X-Svc-Nonce': nonce,
        'X-Svc-Digest': svcDigest(nonce, timestamp, apiKey),
      },
    });
    expect(byDigest.status).toBe(200);
    const byOtp = await fetch(laender, {
      headers: { 'X-Svc-Api-Id': 'nord-portal', 'X-Svc-Otp': svcOtp(apiKey) },
    });
    expect(byOtp.status).toBe(200);
    const sub = await fetch(`${services.broker.baseUrl}/service/nord/broker/1.0/rest/vermittler`, {
      headers: { 'X-Svc-Api-Id': 'nord-portal', 'X-Svc-Otp': svcOtp(apiKey) },
    });
    expect(await sub.json()).toEqual([expect.objectContaining({ Vermittler: 'N2', Uebervermittler: 'N1' })]);
    expect(Date.now() - started).toBeLessThan(5_000);
    // Area C's own rules let a sub-broker's name hold a terminal escape: the CLI shows it, and does not obey it.
    const escapedSub = await fetch(`${services.broker.baseUrl}/service/nord/broker/1.0/rest/vermittler`, {
      method: 'POST',
      headers: {
        'X-Svc-Api-Id': 'nord-portal',
        'X-Svc-Otp': svcOtp(apiKey),
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ Vermittlernummer: 'N8', Name: 'Nord \u001b[2J\u009bAcht' }),
    });
    expect(escapedSub.status).toBe(201);
    const listed = await admin(['broker', 'list', 'nord']);
    expect(listed.stdout).toContain('N8\tN1\tNord ?[2J?Acht');
    expect(listed.stdout).not.toMatch(/[\u001b\u009b]/);
    // The key was shown once: nothing the CLI reads later holds it.
    expect((await admin(['broker', 'get', 'nord', 'N1', '--json'])).stdout).not.toContain(apiKey);
    const blocked = await admin(['api-client', 'block', 'nord', 'nord-portal']);
    expect(blocked.code).toBe(0);
    const refused = await fetch(laender, {
      headers: { 'X-Svc-Api-Id': 'nord-portal', 'X-Svc-Otp': svcOtp(apiKey) },
    });
    expect(refused.status).toBe(403);
  });

  it('makes a calculation user (password from standard input) who logs in to area B at once', async () => {
    const created = await withInput(['calc-user', 'create', 'nord', 'nord-rechner'], `${PASSWORD}\n`);
    expect(created).toMatchObject({ code: 0, stdout: 'Calculation user nord-rechner created\n' });
    const login = await fetch(`${services.calc.baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'nord-rechner', password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const weak = await withInput(['calc-user', 'create', 'nord', 'schwach'], 'passwort\n');
    expect(weak.code).toBe(1);
    expect(weak.stderr).toContain('password must be at least 10 characters long');
  });

  it('uploads master data, dry run first, and refuses a bad file with its lines and exit code 1', async () => {
    const brokers = path.join(workDir, 'brokers.csv');
    writeFileSync(brokers, 'number,name,parent\nN4,Nord Vier,N3\nN3,Nord Drei,N1\n');
    expect((await admin(['master-data', 'nord', 'brokers', brokers, '--dry-run'])).stdout).toBe(
      'Dry run, nothing written: 2 created, 0 updated, 0 unchanged\n',
    );
    expect((await admin(['master-data', 'nord', 'brokers', brokers])).stdout).toBe(
      '2 created, 0 updated, 0 unchanged\n',
    );
    expect((await json(['master-data', 'nord', 'brokers', brokers])).unchanged).toBe(2);
    const bad = path.join(workDir, 'bad.csv');
    writeFileSync(bad, 'number,name,parent\nN5,Nord Fünf,N9\n');
    const refused = await admin(['master-data', 'nord', 'brokers', bad]);
    expect(refused).toMatchObject({ code: 1 });
    expect(refused.stdout).toContain('line 2: parent N9 is neither in the file nor a broker of this tenant');
    const latin1 = path.join(workDir, 'latin1.csv');
    writeFileSync(latin1, Buffer.from('number,name\nN6,Nord F\xfcnf\n', 'latin1'));
    const notUtf8 = await admin(['master-data', 'nord', 'brokers', latin1]);
    expect(notUtf8).toMatchObject({ code: 1 });
    expect(notUtf8.stderr).toContain('is not UTF-8: save it as UTF-8');
  });

  /** An operator's access token, by the client-credentials grant. */
  async function operatorToken(): Promise<string> {
    const answer = await fetch(oauth.tokenUrl, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${OPERATOR.clientId}:${OPERATOR.clientSecret}`).toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'platform.operator' }),
    });
    return ((await answer.json()) as { access_token: string }).access_token;
  }

  it('makes an insurer and an agreement the import accepts at once', async () => {
    const importToken = await suite.importToken('N1', 'nord');
    const upload = async () => {
      const form = new FormData();
      form.append('companies[0]', '9999');
      form.append('file', await openAsBlob(path.join(REPO_ROOT, 'examples/bestand.gdv')), 'bestand.gdv');
      return fetch(`${services.import.baseUrl}/api/v1/import`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${importToken}` },
        body: form,
      });
    };
    const before = await upload();
    expect(before.status).toBe(400);
    expect(await before.json()).toMatchObject({ message: 'Unknown companies: 9999' });
    const company = await fetch(`${services.admin.baseUrl}/admin/v1/tenants/nord/companies`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await operatorToken()}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ vu_number: '9999', name: 'Synthetische Versicherung AG' }),
    });
    expect(company.status).toBe(201);
    const agreements = path.join(workDir, 'agreements.csv');
    writeFileSync(agreements, 'broker,vu_number,agency_number\nN1,9999,AG-N1\n');
    expect((await admin(['master-data', 'nord', 'agreements', agreements])).stdout).toBe(
      '1 created, 0 updated, 0 unchanged\n',
    );
    expect((await upload()).status).toBe(200);
  });

  it('lets a tenant administrator administer its tenant only, and says why a call was refused', async () => {
    const tenantAdmin = {
      ...cliEnv,
      ADMIN_CLIENT_ID: NORD_ADMIN.clientId,
      ADMIN_CLIENT_SECRET: NORD_ADMIN.clientSecret,
      ADMIN_TOKEN_SCOPE: 'platform.admin',
    };
    const own = await admin(['broker', 'get', 'nord', 'N1'], tenantAdmin);
    expect(own.code).toBe(0);
    const refused = await admin(['tenant', 'create', 'sued', 'Süd'], tenantAdmin);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refused (403)');
    const wrongSecret = await admin(['tenant', 'list'], { ...cliEnv, ADMIN_CLIENT_SECRET: 'falsch' });
    expect(wrongSecret.code).toBe(1);
    expect(wrongSecret.stderr).toContain('no token');
    expect((await admin(['tenant'], cliEnv)).code).toBe(2);
    expect((await admin(['tenant', 'list'], {})).stderr).toContain('No token');
  });

  it('takes a token from ADMIN_TOKEN as well', async () => {
    const listed = await admin(['tenant', 'list'], {
      ADMIN_URL: cliEnv.ADMIN_URL,
      ADMIN_TOKEN: await operatorToken(),
    });
    expect(listed).toMatchObject({ code: 0, stdout: 'nord\tNord Pool\n' });
  });
});
