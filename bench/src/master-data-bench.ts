import { generateKeyPairSync, randomBytes } from 'node:crypto';
import os from 'node:os';
import { SignJWT } from 'jose';
import { FIXTURE_WRITE, withAdministration } from '@broker/fixtures';
import { stopChild } from '@broker/local-services';
import { createTestDatabase } from '@broker/testing';
import { cpuTimeMeter } from './cpu-time.js';
import { recordFigures, serviceEntry } from './bench-build.js';
import { type ServiceProcess, startServiceProcess } from './service-process.js';

/**
 * importMasterData through the built administration service (HTTP, text/csv): a pool's nightly files of 5,000 brokers
 * (a tree four levels deep, a third of them naming a parent that comes later in the file) and 20,000 employees (four
 * per broker), each uploaded as a dry run, for real, again unchanged, and with a tenth of the rows changed. Usage:
 * `pnpm bench:master-data [brokers] [employees per broker]`.
 */

const ADMIN_ENTRY = serviceEntry('apps/admin-service/dist/main.js');
const ISSUER = 'https://bench.local/';
const AUDIENCE = 'bench-admin';
const TENANT = 'bench';

/**
 * Brokers in a tree four levels deep: B0..B49 at the top, every further broker Bi below B(i/4). Written from the last
 * to the first, so every broker comes before its parent in the file. `renamed`: that many get another name; `moved`:
 * that many of the last brokers (leaves) are placed below another top broker.
 */
function brokersCsv(count: number, { renamed = 0, moved = 0 } = {}): string {
  const rows = ['number,name,parent,blocked,city'];
  for (let index = count - 1; index >= 0; index--) {
    const parent = index < 50 ? '' : `B${index >= count - moved ? (index % 49) + 1 : Math.floor(index / 4)}`;
    const name = index < renamed ? `Makler ${index} (umbenannt)` : `Makler ${index}`;
    rows.push(
      `B${index},"${name}",${parent},${index % 97 === 0},${['Köln', 'Hamburg', 'München'][index % 3]}`,
    );
  }
  return `${rows.join('\n')}\n`;
}

function employeesCsv(brokers: number, perBroker: number, changed = 0): string {
  const rows = ['broker,number,name,email,disabled'];
  let index = 0;
  for (let broker = 0; broker < brokers; broker++)
    for (let employee = 0; employee < perBroker; employee++, index++) {
      const email = index < changed ? `neu.${index}@makler.example` : `m${index}@makler.example`;
      rows.push(`B${broker},e${employee},Mitarbeiter ${index},${email},false`);
    }
  return `${rows.join('\n')}\n`;
}

interface Round {
  label: string;
  seconds: number;
  answer: { created: number; updated: number; unchanged: number; errors: unknown[] };
}

async function upload(
  port: number,
  token: string,
  kind: string,
  csv: string,
  dryRun = false,
): Promise<Round['answer']> {
  const response = await fetch(
    `http://127.0.0.1:${port}/admin/v1/tenants/${TENANT}/master-data/${kind}?dry_run=${dryRun}`,
    { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/csv' }, body: csv },
  );
  const answer = (await response.json()) as Round['answer'];
  if (response.status !== 200)
    throw new Error(`${kind}: ${response.status} ${JSON.stringify(answer).slice(0, 500)}`);
  return answer;
}

async function timed(label: string, work: () => Promise<Round['answer']>): Promise<Round> {
  const started = performance.now();
  const answer = await work();
  return { label, seconds: (performance.now() - started) / 1000, answer };
}

/** The peak resident memory of a process in MiB (Linux). */
async function peakRssMiB(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

async function main(): Promise<void> {
  const brokers = Number(process.argv[2] ?? 5_000);
  const perBroker = Number(process.argv[3] ?? 4);
  const database = await createTestDatabase();
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let service: ServiceProcess | undefined;
  try {
    await withAdministration(database.url, (admin) =>
      admin.tenants.create(FIXTURE_WRITE, { id: TENANT, name: 'Bench' }),
    );
    service = await startServiceProcess(
      ADMIN_ENTRY,
      {
        ...process.env,
        DATABASE_URL: database.url,
        ADMIN_OAUTH_ISSUER: ISSUER,
        ADMIN_OAUTH_AUDIENCE: AUDIENCE,
        ADMIN_OAUTH_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        API_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        LOG_LEVEL: 'warn',
      },
      { output: 'ignore' },
    );
    const token = await new SignJWT({ scope: 'platform.operator' })
      .setProtectedHeader({ alg: 'RS256' })
      .setSubject('bench')
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime('1h')
      .sign(privateKey);
    const port = service.port;
    const brokerFile = brokersCsv(brokers);
    const employeeFile = employeesCsv(brokers, perBroker);
    const cpu = cpuTimeMeter();
    const rounds: Round[] = [];
    for (const [kind, file, changedFile] of [
      ['brokers', brokerFile, brokersCsv(brokers, { renamed: brokers / 10 })],
      ['employees', employeeFile, employeesCsv(brokers, perBroker, (brokers * perBroker) / 10)],
    ] as const) {
      rounds.push(await timed(`${kind}: dry run`, () => upload(port, token, kind, file, true)));
      rounds.push(await timed(`${kind}: first upload`, () => upload(port, token, kind, file)));
      rounds.push(await timed(`${kind}: same file again`, () => upload(port, token, kind, file)));
      rounds.push(await timed(`${kind}: a tenth changed`, () => upload(port, token, kind, changedFile)));
    }
    const moved = brokersCsv(brokers, { renamed: brokers / 10, moved: brokers / 10 });
    rounds.push(await timed('brokers: a tenth moved', () => upload(port, token, 'brokers', moved)));
    const rss = await peakRssMiB(service.pid!);
    console.log(
      `${os.availableParallelism()} cores, Node ${process.version}; ${brokers} brokers ` +
        `(${(Buffer.byteLength(brokerFile) / 1024).toFixed(0)} KiB), ${brokers * perBroker} employees ` +
        `(${(Buffer.byteLength(employeeFile) / 1024).toFixed(0)} KiB); ${cpu.read()}`,
    );
    console.log('| upload | seconds | created | updated | unchanged |');
    console.log('| --- | ---: | ---: | ---: | ---: |');
    for (const { label, seconds, answer } of rounds)
      console.log(
        `| ${label} | ${seconds.toFixed(2)} | ${answer.created} | ${answer.updated} | ${answer.unchanged} |`,
      );
    console.log(`admin service peak RSS: ${rss} MiB`);
    recordFigures([
      ...rounds.map(({ label, seconds }) => ({
        row: label,
        metric: 's',
        value: seconds,
        better: 'lower' as const,
      })),
      { row: 'admin service', metric: 'peak RSS MiB', value: rss, better: 'lower' },
    ]);
  } finally {
    if (service) await stopChild(service, 'SIGTERM', 'SIGKILL', 10_000);
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
