import { createPrivateKey } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SignJWT } from 'jose';
import { findWorkspaceRoot } from '@broker/local-services';
import { DEV_OAUTH_AUDIENCE, DEV_OAUTH_ISSUER, developmentSecrets } from './dev-environment.js';

const USAGE = `usage: pnpm token:dev [--tenant demo] [--broker V1000] [--subject 01_01 | --client-id NAME] [--ttl SECONDS]
Prints an access token for the import service as started by "pnpm start" (development key, scope service.imports).`;

/** Refuses to mint where the import service would trust a real authorization server instead of the dev key. */
function assertDevelopment(publicKey: string): void {
  if (process.env.NODE_ENV === 'production') throw new Error('token:dev is refused with NODE_ENV=production');
  if (process.env.IMPORT_OAUTH_JWKS_URL)
    throw new Error('token:dev is refused: IMPORT_OAUTH_JWKS_URL names a real authorization server');
  const configured = process.env.IMPORT_OAUTH_PUBLIC_KEY;
  if (configured && configured.trim() !== publicKey.trim()) {
    throw new Error('token:dev is refused: IMPORT_OAUTH_PUBLIC_KEY is not the development key');
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      tenant: { type: 'string', default: 'demo' },
      broker: { type: 'string', default: 'V1000' },
      subject: { type: 'string', default: '01_01' },
      'client-id': { type: 'string' },
      ttl: { type: 'string', default: '3600' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return console.log(USAGE);
  const ttl = Number(values.ttl);
  if (!Number.isInteger(ttl) || ttl <= 0)
    throw new Error(`--ttl takes a positive number of seconds\n${USAGE}`);
  const secrets = developmentSecrets(path.join(findWorkspaceRoot(__dirname), '.local'));
  assertDevelopment(secrets.IMPORT_OAUTH_PUBLIC_KEY);
  const clientId = values['client-id'];
  const token = await new SignJWT({
    tenant: values.tenant,
    broker_id: values.broker,
    scope: 'service.imports',
    ...(clientId ? { client_id: clientId } : {}),
  })
    .setProtectedHeader({ alg: 'RS256' })
    .setSubject(clientId ?? values.subject)
    .setIssuer(DEV_OAUTH_ISSUER)
    .setAudience(DEV_OAUTH_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttl)
    .sign(createPrivateKey(secrets.devTokenPrivateKey));
  console.log(token);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
