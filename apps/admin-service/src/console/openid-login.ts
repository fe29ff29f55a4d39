import * as oidc from 'openid-client';
import { DomainError, ErrorCode } from '@broker/errors';

/** The console as a confidential client of the OpenID provider. */
export interface OpenIdLoginSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Where the provider sends the browser back (`{base}/callback`), and after logout (`{base}/`). */
  redirectUri: string;
  postLogoutRedirectUri: string;
  /** The resource indicator of the administration API: its tokens' audience. */
  resource: string;
}

/** What a login needs to keep until its callback: compared there, never sent to the browser. */
export interface PendingLogin {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The provider's tokens for a person, as the console keeps them (encrypted) on the server. */
export interface ProviderTokens {
  accessToken: string;
  refreshToken: string | null;
  idToken: string | null;
  /** When the access token expires (ms since the epoch). */
  accessExpiresAt: number;
  /** The ID token's `name`, else its subject. */
  displayName: string | null;
}

const SCOPE = 'openid profile offline_access platform.admin platform.operator';
const PROVIDER_TIMEOUT_SECONDS = 10;
/** A token whose lifetime the provider does not state is used this long. */
const DEFAULT_TOKEN_SECONDS = 300;

/** The provider does not answer, or answers nonsense: try again later (503), never a 500. */
function providerUnavailable(error: unknown): DomainError {
  const reason = error instanceof Error ? error.message : String(error);
  return new DomainError(ErrorCode.DependencyUnavailable, `The login provider cannot be reached: ${reason}`);
}

function isLoopback(url: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

/**
 * OpenID Connect's authorization code flow with PKCE (S256) for the console (openid-client): the provider's
 * metadata is discovered on first use (and again after a failure), plain http only for a provider on this machine.
 */
export class OpenIdLogin {
  private configuration?: Promise<oidc.Configuration>;

  constructor(private readonly settings: OpenIdLoginSettings) {}

  /** The provider's authorization URL for a new login, and what the callback must find again. */
  async start(): Promise<{ url: URL; pending: PendingLogin }> {
    const config = await this.config();
    const pending = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUri,
      scope: SCOPE,
      resource: this.settings.resource,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url, pending };
  }

  /**
   * The tokens for the provider's answer at the callback (`query`, as it arrived). A forged or reused state, a wrong
   * code or an error answer of the provider is the caller's fault: 400 (AuthenticationFailed is 401; a login that
   * went wrong is shown as a page, not as an API error).
   */
  async finish(query: URLSearchParams, pending: PendingLogin): Promise<ProviderTokens> {
    const config = await this.config();
    const callback = new URL(this.settings.redirectUri);
    callback.search = query.toString();
    try {
      const answer = await oidc.authorizationCodeGrant(
        config,
        callback,
        {
          pkceCodeVerifier: pending.codeVerifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        },
        { resource: this.settings.resource },
      );
      return tokensOf(answer, null);
    } catch (error) {
      throw this.refusal(error, 'The login was not accepted');
    }
  }

  /** New tokens for a session's refresh token; null when the provider refuses it (the person logs in again). */
  async refresh(tokens: ProviderTokens): Promise<ProviderTokens | null> {
    if (!tokens.refreshToken) return null;
    const config = await this.config();
    try {
      const answer = await oidc.refreshTokenGrant(config, tokens.refreshToken, {
        resource: this.settings.resource,
      });
      return tokensOf(answer, tokens);
    } catch (error) {
      if (isProviderRefusal(error)) return null;
      throw providerUnavailable(error);
    }
  }

  /** Revokes the session's refresh token at the provider (RFC 7009) when it offers that; best effort. */
  async revoke(tokens: ProviderTokens): Promise<void> {
    const config = await this.config().catch(() => undefined);
    if (!config?.serverMetadata().revocation_endpoint || !tokens.refreshToken) return;
    await oidc.tokenRevocation(config, tokens.refreshToken).catch(() => undefined);
  }

  /** Where the browser ends the session at the provider too (RP-initiated logout), then comes back to the console. */
  async logoutUrl(idToken: string | null): Promise<string> {
    const config = await this.config().catch(() => undefined);
    if (!config?.serverMetadata().end_session_endpoint) return this.settings.postLogoutRedirectUri;
    return oidc
      .buildEndSessionUrl(config, {
        post_logout_redirect_uri: this.settings.postLogoutRedirectUri,
        client_id: this.settings.clientId,
        ...(idToken ? { id_token_hint: idToken } : {}),
      })
      .toString();
  }

  private refusal(error: unknown, message: string): DomainError {
    if (!isProviderRefusal(error)) return providerUnavailable(error);
    const reason = error instanceof Error ? error.message : String(error);
    return new DomainError(ErrorCode.ValidationFailed, `${message}: ${reason}`);
  }

  private config(): Promise<oidc.Configuration> {
    this.configuration ??= this.discover().catch((error: unknown) => {
      this.configuration = undefined;
      throw providerUnavailable(error);
    });
    return this.configuration;
  }

  private async discover(): Promise<oidc.Configuration> {
    const issuer = new URL(this.settings.issuer);
    const config = await oidc.discovery(
      issuer,
      this.settings.clientId,
      { client_secret: this.settings.clientSecret },
      oidc.ClientSecretBasic(this.settings.clientSecret),
      {
        timeout: PROVIDER_TIMEOUT_SECONDS,
        execute: isLoopback(issuer) && issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
      },
    );
    config.timeout = PROVIDER_TIMEOUT_SECONDS;
    return config;
  }
}

/**
 * An answer that refuses what the console sent (an OAuth error answer, a state or nonce that does not match, an ID
 * token that does not verify), as opposed to a provider that cannot be reached.
 */
function isProviderRefusal(error: unknown): boolean {
  return (
    error instanceof oidc.ResponseBodyError ||
    error instanceof oidc.AuthorizationResponseError ||
    (error instanceof Error && 'code' in error && String(error.code).startsWith('OAUTH_'))
  );
}

type TokenAnswer = oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers;

function tokensOf(answer: TokenAnswer, previous: ProviderTokens | null): ProviderTokens {
  const claims = answer.claims();
  const name = claims && typeof claims.name === 'string' ? claims.name : null;
  return {
    accessToken: answer.access_token,
    // A provider that does not rotate refresh tokens answers none on refresh: the one held stays valid.
    refreshToken: answer.refresh_token ?? previous?.refreshToken ?? null,
    idToken: answer.id_token ?? previous?.idToken ?? null,
    accessExpiresAt: Date.now() + (answer.expiresIn() ?? DEFAULT_TOKEN_SECONDS) * 1000,
    displayName: name ?? previous?.displayName ?? null,
  };
}
