import { randomBytes } from 'node:crypto';
import { type OidcAuthorizationServer, startOidcAuthorizationServer } from '@broker/testing';
import { ClientCredentialsTokens, TokenRequestError } from './client-credentials.js';
import type { FetchFunction } from './fetch-function.js';

const ACCOUNT = {
  clientId: 'portal',
  clientSecret: randomBytes(16).toString('hex'),
  tenant: 'demo',
  brokerId: 'V1000',
};
const TOKEN_SECONDS = 120;

describe('ClientCredentialsTokens against a real authorization server', () => {
  let server: OidcAuthorizationServer;
  let requests: number;
  const counting: FetchFunction = (request) => {
    requests++;
    return fetch(request);
  };

  beforeAll(async () => {
    server = await startOidcAuthorizationServer([ACCOUNT], TOKEN_SECONDS);
  });
  afterAll(() => server?.close());
  beforeEach(() => (requests = 0));

  const tokensAt = (clock: { now: number }, clientSecret = ACCOUNT.clientSecret) =>
    new ClientCredentialsTokens(
      { tokenUrl: server.tokenUrl, clientId: ACCOUNT.clientId, clientSecret, renewBeforeSeconds: 30 },
      counting,
      () => clock.now,
    );

  it('shares one token request among concurrent callers and keeps the token until shortly before it expires', async () => {
    const clock = { now: Date.now() };
    const tokens = tokensAt(clock);
    const [first, second] = await Promise.all([tokens.token(), tokens.token()]);
    expect(first).toBe(second);
    const claims = JSON.parse(Buffer.from(first.split('.')[1], 'base64url').toString()) as Record<
      string,
      unknown
    >;
    expect(claims).toMatchObject({
      scope: 'service.imports',
      tenant: 'demo',
      broker_id: 'V1000',
      aud: server.audience,
    });

    clock.now += (TOKEN_SECONDS - 31) * 1000;
    expect(await tokens.token()).toBe(first);
    expect(requests).toBe(1);

    clock.now += 2_000; // now within 30 s of the expiry
    expect(await tokens.token()).not.toBe(first);
    expect(requests).toBe(2);
  });

  it('asks for a new token once the service refused the current one, not for a token renewed meanwhile', async () => {
    const tokens = tokensAt({ now: Date.now() });
    const refused = await tokens.token();
    tokens.invalidate(refused);
    const renewed = await tokens.token();
    expect(renewed).not.toBe(refused);
    tokens.invalidate(refused); // a second call that was refused the same old token
    expect(await tokens.token()).toBe(renewed);
    expect(requests).toBe(2);
  });

  it('reports a refused client with the OAuth error body, and does not ask again for a minute', async () => {
    const clock = { now: Date.now() };
    const tokens = tokensAt(clock, 'wrong');
    const refused = await tokens.token().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TokenRequestError);
    expect(refused).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    await expect(tokens.token()).rejects.toBe(refused);
    expect(requests).toBe(1);
    clock.now += 61_000;
    await expect(tokens.token()).rejects.toBeInstanceOf(TokenRequestError);
    expect(requests).toBe(2);
  });
});
