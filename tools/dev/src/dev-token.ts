import { createPrivateKey } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SignJWT } from 'jose';
import { findWorkspaceRoot } from '@broker/local-services';
import {
  DEV_ADMIN_OAUTH_AUDIENCE,
  DEV_ADMIN_OAUTH_ISSUER,
  DEV_OAUTH_AUDIENCE,
  DEV_OAUTH_ISSUER,
  developmentSecrets,
} from './dev-environment.js';

const USAGE = `usage: pnpm token:dev [--tenant demo] [--broker V1000] [--subject 01_01 | --client-id NAME] [--ttl SECONDS]
       pnpm token:dev --operator [--subject NAME] [--ttl SECONDS]
       pnpm token:dev --admin [--tenant demo] [--subject NAME] [--ttl SECONDS]
Prints an access token as "pnpm start" takes it (development key): for the import service (scope service.imports),
or with --operator / --admin for the administration service (scope platform.operator, or platform.admin of a tenant).`;

/**
 * Refuses to mint where the service would trust a real authorization server instead of the dev key (`prefix`:
 * IMPORT or ADMIN, the service's variables).
 */
function assertDevelopment(publicKey: string, prefix: 'IMPORT' | 'ADMIN'): void {
  if (process.env.NODE_ENV === 'production') throw new Error('token:dev is refused with NODE_ENV=production');
  if (process.env[`${prefix}_OAUTH_JWKS_URL`])
    throw new Error(`token:dev is refused: ${prefix}_OAUTH_JWKS_URL names a real authorization server`);
  const configured = process.env[`${prefix}_OAUTH_PUBLIC_KEY`];
  if (configured && configured.trim() !== publicKey.trim()) {
    throw new Error(`token:dev is refused: ${prefix}_OAUTH_PUBLIC_KEY is not the development key`);
  }
}

/** The claims and audience of the token asked for. */
function tokenOf(values: {
  tenant: string;
  broker: string;
  subject: string;
  'client-id'?: string;
  operator: boolean;
  admin: boolean;
}): {
  claims: Record<string, string>;
  subject: string;
  audience: string;
  issuer: string;
  prefix: 'IMPORT' | 'ADMIN';
} {
  if (values.operator && values.admin) throw new Error(`--operator and --admin exclude each other\n${USAGE}`);
  if (values.operator || values.admin) {
    const claims: Record<string, string> = values.operator
      ? { scope: 'platform.operator' }
      : { scope: 'platform.admin', tenant: values.tenant };
    const subject =
      values.subject === '01_01' ? (values.operator ? 'dev-operator' : 'dev-admin') : values.subject;
    return {
      claims,
      subject,
      audience: DEV_ADMIN_OAUTH_AUDIENCE,
      issuer: DEV_ADMIN_OAUTH_ISSUER,
      prefix: 'ADMIN',
    };
  }
  const clientId = values['client-id'];
  return {
    claims: {
      tenant: values.tenant,
      broker_id: values.broker,
      scope: 'service.imports',
      ...(clientId ? { client_id: clientId } : {}),
    },
    subject: clientId ?? values.subject,
    audience: DEV_OAUTH_AUDIENCE,
    issuer: DEV_OAUTH_ISSUER,
    prefix: 'IMPORT',
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      tenant: { type: 'string', default: 'demo' },
      broker: { type: 'string', default: 'V1000' },
      subject: { type: 'string', default: '01_01' },
      'client-id': { type: 'string' },
      ttl: { type: 'string', default: '3600' },
      operator: { type: 'boolean', default: false },
      admin: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return console.log(USAGE);
  const ttl = Number(values.ttl);
  if (!Number.isInteger(ttl) || ttl <= 0)
    throw new Error(`--ttl takes a positive number of seconds\n${USAGE}`);
  const secrets = developmentSecrets(path.join(findWorkspaceRoot(__dirname), '.local'));
  const { claims, subject, audience, issuer, prefix } = tokenOf(values);
  assertDevelopment(secrets.IMPORT_OAUTH_PUBLIC_KEY, prefix);
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256' })
    .setSubject(subject)
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttl)
    .sign(createPrivateKey(secrets.devTokenPrivateKey));
  console.log(token);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
