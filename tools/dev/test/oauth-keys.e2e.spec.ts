import { randomBytes } from 'node:crypto';
import { generateKeyPair, SignJWT } from 'jose';
import { ClientCredentialsTokens } from '@broker/client';
import { type OidcAuthorizationServer, startOidcAuthorizationServer, waitFor } from '@broker/testing';
import { insertBrokerFixture } from '@broker/fixtures';
import { type RunningProcess, startProcess } from './run-cli.js';
import { createSuiteEnvironment, type SuiteEnvironment } from './suite-environment.js';

const ACCOUNT = {
  clientId: 'v1000-keys',
  clientSecret: randomBytes(16).toString('hex'),
  tenant: 'demo',
  brokerId: 'V1000',
};
/** IMPORT_OAUTH_JWKS_MAX_AGE_SECONDS of the test: how long a removed key may still be accepted. */
const KEYS_MAX_AGE_SECONDS = 3;
/** JWKS_REFETCH_COOLDOWN_MS of libs/auth. */
const REFETCH_COOLDOWN_MS = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The import API against a real authorization server (oidc-provider) that rotates its keys and goes away: a new
 * key is accepted at once, a removed one refused within the configured bound, and an unreachable key set is a 503
 * with Retry-After and a log line naming the server, never a 401 or a 500.
 */
describe('import API: the authorization server’s keys rotated, removed and unreachable', () => {
  let oauth: OidcAuthorizationServer;
  let environment: SuiteEnvironment;
  let api: RunningProcess;

  beforeAll(async () => {
    oauth = await startOidcAuthorizationServer([ACCOUNT]);
    environment = await createSuiteEnvironment({
      ...oauth.importServiceEnv,
      IMPORT_OAUTH_JWKS_MAX_AGE_SECONDS: String(KEYS_MAX_AGE_SECONDS),
      LOG_LEVEL: 'warn',
    });
    await insertBrokerFixture(String(environment.env.DATABASE_URL));
    api = await startProcess('apps/import-service/dist/main.js', environment.env);
  }, 60_000);

  afterAll(async () => {
    await api?.terminate();
    await environment?.cleanup();
    await oauth?.close();
  });

  /** A token of the account as the authorization server issues it now. */
  const freshToken = () =>
    new ClientCredentialsTokens({
      tokenUrl: oauth.tokenUrl,
      clientId: ACCOUNT.clientId,
      clientSecret: ACCOUNT.clientSecret,
    }).token();
  const list = (token: string) =>
    fetch(`${api.baseUrl}/api/v1/list`, { headers: { Authorization: `Bearer ${token}` } });
  const kidOf = (token: string) =>
    (JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()) as { kid: string }).kid;

  it('accepts a token of a new key as soon as the cooldown allows, and refuses a removed key within the bound', async () => {
    const before = await freshToken();
    expect((await list(before)).status).toBe(200);

    await oauth.rotateKeys({ keepOld: true });
    const rotated = await freshToken();
    expect(kidOf(rotated)).not.toBe(kidOf(before));
    await sleep(REFETCH_COOLDOWN_MS);
    expect((await list(rotated)).status).toBe(200);
    expect((await list(before)).status).toBe(200);

    await oauth.rotateKeys({ keepOld: false });
    const current = await freshToken();
    await sleep(KEYS_MAX_AGE_SECONDS * 1000 + 500);
    const removed = await list(before);
    expect(removed.status).toBe(401);
    expect(await removed.json()).toMatchObject({ message: 'The token was signed with an unknown key' });
    expect((await list(current)).status).toBe(200);
  }, 30_000);

  it('answers 503 with Retry-After while the key set cannot be read, naming the server in the log, and recovers', async () => {
    const token = await freshToken();
    expect((await list(token)).status).toBe(200);
    await oauth.pause();
    try {
      // While the keys in hand are fresh, a token of a key they lack is the token's fault, outage or not.
      const { privateKey } = await generateKeyPair('RS256');
      const foreign = await new SignJWT({ tenant: 'demo', broker_id: 'V1000', scope: 'service.imports' })
        .setProtectedHeader({ alg: 'RS256', kid: 'not-at-the-server' })
        .setIssuer(oauth.issuer)
        .setAudience(oauth.audience)
        .setExpirationTime('5m')
        .sign(privateKey);
      expect((await list(foreign)).status).toBe(401);
      await sleep(KEYS_MAX_AGE_SECONDS * 1000 + 500);
      const refused = await list(token);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await refused.json()).toMatchObject({
        name: 'DependencyUnavailable',
        message: "The authorization server's keys cannot be read; try again later",
        status: 503,
      });
      // Log lines are written asynchronously.
      const logged = `The authorization server's keys at ${oauth.jwksUrl} cannot be read`;
      await waitFor(
        () => api.output().includes(logged) || undefined,
        5_000,
        () => api.output(),
      );
    } finally {
      await oauth.resume();
    }
    await sleep(REFETCH_COOLDOWN_MS);
    expect((await list(token)).status).toBe(200);
  }, 30_000);
});
