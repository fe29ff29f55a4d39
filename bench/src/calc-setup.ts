import { generateKeyPairSync } from 'node:crypto';
import { FIXTURE_WRITE, withAdministration } from '@broker/fixtures';

/** What the calculation benches send: the operation, its user, and requests of a comparison calculator. */

export const CALC_PATH = '/api/v1/calculate/private-liability';
export const CALC_USER = { username: 'bench', password: 'Kiesel Abendrot Mondschein' };
const DAY = 86_400;

/**
 * A couple with children, the policyholder a teacher asking for service liability; `variant` varies the birth
 * date, the partner, the previous insurance and the payment mode, and (beyond them) the policyholder's name, so
 * every variant is a body of its own that no answer cache has seen.
 */
export function calculationRequest(variant: number): object {
  const modes = ['monthly', 'quarterly', 'halbjährlich', 'jaehrlich'];
  return {
    policyholder: {
      birthdate: 315_532_800 + (variant % 500) * 17 * DAY,
      sex: 'female',
      name: `Muster ${variant}`,
    },
    subject_matter: {
      policyholder: {
        civil_servant: true,
        include_civil_service_liability: true,
        civil_service_occupation: 'lehrer',
      },
      partner: { civil_servant: variant % 3 === 0, birthdate: 347_155_200 },
      include_children: true,
    },
    previous_insurance_exists: variant % 2 === 0,
    previous_damages_exist: false,
    desired_payment_mode: modes[variant % modes.length],
  };
}

/** The bench's calculation user, made as every calculation user is: through the administration. */
export async function addCalcUser(databaseUrl: string): Promise<void> {
  await withAdministration(databaseUrl, async (admin) => {
    await admin.tenants.create(FIXTURE_WRITE, { id: 'demo', name: 'Demo' });
    await admin.calcUsers.create(FIXTURE_WRITE, 'demo', CALC_USER);
  });
}

/**
 * The calculation service's variables as the benches run it: production mode, request logs at info, a fresh
 * signing key, the database `databaseUrl`.
 */
export function calcServiceEnv(databaseUrl: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    TRUSTED_PROXIES: 'loopback',
    DATABASE_URL: databaseUrl,
    CALC_JWT_PRIVATE_KEY: generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString(),
    LOG_LEVEL: 'info',
  };
}

/** The bench user's login token. */
export async function loginCalcUser(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(CALC_USER),
  });
  if (!response.ok) throw new Error(`login failed: ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}
