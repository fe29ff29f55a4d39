/** One process of `pnpm start`. */
export interface SuiteProcess {
  name: string;
  /** Relative to the repository root. */
  script: string;
  port: number;
  /** Environment variable that overrides `port`. */
  portVariable: string;
  /** Paths printed, on the process's own port, once the suite is ready. */
  links: string[];
  /** Whether the process uses Redis (and so requires REDIS_URL and checks it for readiness). */
  usesRedis: boolean;
  /** Extra environment on top of PORT, DATABASE_URL and REDIS_URL. */
  env: Record<string, string>;
}

export const suite: SuiteProcess[] = [
  {
    name: 'import-service',
    usesRedis: true,
    script: 'apps/import-service/dist/main.js',
    port: 3001,
    portVariable: 'IMPORT_PORT',
    links: ['/api/v1/openapi.json'],
    env: {},
  },
  {
    name: 'import-worker',
    usesRedis: true,
    script: 'apps/import-service/dist/worker.js',
    port: 3004,
    portVariable: 'IMPORT_WORKER_PORT',
    links: ['/health/ready'],
    env: {},
  },
  {
    name: 'calc-service',
    usesRedis: false,
    script: 'apps/calc-service/dist/main.js',
    port: 3002,
    portVariable: 'CALC_PORT',
    links: ['/api/doc/v1/swagger.json'],
    env: {},
  },
  {
    name: 'broker-service',
    usesRedis: true,
    script: 'apps/broker-service/dist/main.js',
    port: 3003,
    portVariable: 'BROKER_PORT',
    links: ['/service/demo/employee/v1/rest/openapi.json', '/service/demo/broker/v1/rest/openapi.json'],
    env: {},
  },
  {
    name: 'admin-service',
    usesRedis: false,
    script: 'apps/admin-service/dist/main.js',
    port: 3005,
    portVariable: 'ADMIN_PORT',
    links: ['/admin/v1/openapi.json'],
    env: {},
  },
];

/** The port a process of the suite listens on: its variable (IMPORT_PORT, ...) when set, else its default. */
export function portOf(entry: SuiteProcess, env: NodeJS.ProcessEnv = process.env): number {
  const override = env[entry.portVariable];
  if (override === undefined || override === '') return entry.port;
  const port = Number(override);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`${entry.portVariable} must be a TCP port number (1-65535)`);
  return port;
}

/** The suite's process of that name. */
export function suiteProcess(name: string): SuiteProcess {
  const entry = suite.find((candidate) => candidate.name === name);
  if (!entry) throw new Error(`No process ${name} in the suite`);
  return entry;
}
