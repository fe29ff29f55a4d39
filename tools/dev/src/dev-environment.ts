import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkoutRedisPrefixes, type LocalServices } from '@broker/local-services';

/** Development values with no safe default, generated once per checkout into `<stateDir>/dev-secrets.json`. */
interface DevelopmentSecrets {
  API_KEY_ENCRYPTION_KEY: string;
  IMPORT_WEBHOOK_ENCRYPTION_KEY: string;
  /** Verifies import-service tokens in development; `pnpm token:dev` signs with the private half. */
  IMPORT_OAUTH_PUBLIC_KEY: string;
  devTokenPrivateKey: string;
  /** Signs the calculation service's login tokens in development. */
  CALC_JWT_PRIVATE_KEY: string;
  /** The operator console as a client of the development login provider, and its sessions' key. */
  ADMIN_CONSOLE_CLIENT_SECRET: string;
  ADMIN_SESSION_SECRET: string;
}

/**
 * Where the development login provider (OpenID Connect: the operator console's logins, the portals' client
 * credentials) listens; `DEV_LOGIN_PORT`.
 */
export const DEV_LOGIN_PORT = Number(process.env.DEV_LOGIN_PORT || 3006);
/** The administration's token issuer in development: the login provider, whose tokens `pnpm token:dev` imitates. */
export const DEV_ADMIN_OAUTH_ISSUER = `http://127.0.0.1:${DEV_LOGIN_PORT}`;
/** The import service's token issuer in development: the same login provider (its client-credentials grant). */
export const DEV_OAUTH_ISSUER = DEV_ADMIN_OAUTH_ISSUER;
/** The import service's audience in development: a URI, the resource indicator (RFC 8707) of its tokens. */
export const DEV_OAUTH_AUDIENCE = 'https://import.dev.broker-platform.local/';
/**
 * The administration service's audience in development (a URI: the console asks the login provider for tokens of
 * this resource, RFC 8707); its tokens are signed with the same development key.
 */
export const DEV_ADMIN_OAUTH_AUDIENCE = 'https://admin.dev.broker-platform.local/';
/** The path of the development token endpoint on the local gateway (the login provider's client-credentials grant). */
export const DEV_TOKEN_PATH = '/dev/oauth/token';
export const DEV_CONSOLE_CLIENT_ID = 'broker-console';
/** The console's address in development: through the local gateway (GATEWAY_PORT, 8080 unless set). */
export const DEV_CONSOLE_URL = `http://127.0.0.1:${process.env.GATEWAY_PORT || 8080}/admin/console`;

function rsaPrivateKeyPem(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

function generateKeyPair(): Pick<DevelopmentSecrets, 'IMPORT_OAUTH_PUBLIC_KEY' | 'devTokenPrivateKey'> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    IMPORT_OAUTH_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    devTokenPrivateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** Only what is missing is generated: the key pair is one unit, and RSA generation is not free. */
function missingSecrets(stored: Partial<DevelopmentSecrets>): Partial<DevelopmentSecrets> {
  return {
    ...(stored.API_KEY_ENCRYPTION_KEY ? {} : { API_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64') }),
    ...(stored.IMPORT_WEBHOOK_ENCRYPTION_KEY
      ? {}
      : { IMPORT_WEBHOOK_ENCRYPTION_KEY: randomBytes(32).toString('base64') }),
    ...(stored.IMPORT_OAUTH_PUBLIC_KEY && stored.devTokenPrivateKey ? {} : generateKeyPair()),
    ...(stored.CALC_JWT_PRIVATE_KEY ? {} : { CALC_JWT_PRIVATE_KEY: rsaPrivateKeyPem() }),
    ...(stored.ADMIN_CONSOLE_CLIENT_SECRET
      ? {}
      : { ADMIN_CONSOLE_CLIENT_SECRET: randomBytes(24).toString('base64url') }),
    ...(stored.ADMIN_SESSION_SECRET ? {} : { ADMIN_SESSION_SECRET: randomBytes(32).toString('base64') }),
  };
}

/** Reads the secrets file (git-ignored, mode 600), creating it or adding what a newer version needs. */
export function developmentSecrets(stateDir: string): DevelopmentSecrets {
  const file = path.join(stateDir, 'dev-secrets.json');
  const stored = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<DevelopmentSecrets>)
    : {};
  const missing = missingSecrets(stored);
  const complete = { ...stored, ...missing } as DevelopmentSecrets;
  if (Object.keys(missing).length > 0) {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(file, `${JSON.stringify(complete, null, 2)}\n`, { mode: 0o600 });
  }
  return complete;
}

/** The development values of the variables without a safe default (keys, the OAuth issuer, the storage dir). */
export function developmentDefaults(stateDir: string): Record<string, string> {
  const secrets = developmentSecrets(stateDir);
  return {
    API_KEY_ENCRYPTION_KEY: secrets.API_KEY_ENCRYPTION_KEY,
    IMPORT_WEBHOOK_ENCRYPTION_KEY: secrets.IMPORT_WEBHOOK_ENCRYPTION_KEY,
    CALC_JWT_PRIVATE_KEY: secrets.CALC_JWT_PRIVATE_KEY,
    IMPORT_OAUTH_PUBLIC_KEY: secrets.IMPORT_OAUTH_PUBLIC_KEY,
    IMPORT_OAUTH_ISSUER: DEV_OAUTH_ISSUER,
    IMPORT_OAUTH_AUDIENCE: DEV_OAUTH_AUDIENCE,
    ADMIN_OAUTH_PUBLIC_KEY: secrets.IMPORT_OAUTH_PUBLIC_KEY,
    ADMIN_OAUTH_ISSUER: DEV_ADMIN_OAUTH_ISSUER,
    ADMIN_OAUTH_AUDIENCE: DEV_ADMIN_OAUTH_AUDIENCE,
    ADMIN_CONSOLE_OIDC_ISSUER: DEV_ADMIN_OAUTH_ISSUER,
    ADMIN_CONSOLE_CLIENT_ID: DEV_CONSOLE_CLIENT_ID,
    ADMIN_CONSOLE_CLIENT_SECRET: secrets.ADMIN_CONSOLE_CLIENT_SECRET,
    ADMIN_CONSOLE_BASE_URL: DEV_CONSOLE_URL,
    ADMIN_SESSION_SECRET: secrets.ADMIN_SESSION_SECRET,
    IMPORT_STORAGE_DIR: path.join(stateDir, 'import-files'),
    // This checkout's own keys in a Redis other checkouts on the machine may share (its database is its own too).
    ...checkoutRedisPrefixes(stateDir),
    // Webhooks to a receiver on this machine (a portal in development): loopback and plain http, development only.
    WEBHOOK_ALLOWED_HOSTS: DEV_WEBHOOK_HOSTS,
    IMPORT_WEBHOOK_ALLOW_HTTP: 'true',
  };
}

/** Where webhooks may go in development besides public hosts: this machine. */
export const DEV_WEBHOOK_HOSTS = 'localhost,127.0.0.0/8,::1/128';

/**
 * The environment the development CLIs hand to their children: the caller's, the resolved service URLs,
 * and development values where the caller did not set them. The token-signing key is never passed on.
 */
export function developmentEnvironment(services: LocalServices, stateDir: string): NodeJS.ProcessEnv {
  const defaults = developmentDefaults(stateDir);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: services.databaseUrl,
    REDIS_URL: services.redisUrl,
  };
  const unset = Object.fromEntries(Object.entries(defaults).filter(([name]) => !env[name]));
  return { ...env, ...unset };
}
