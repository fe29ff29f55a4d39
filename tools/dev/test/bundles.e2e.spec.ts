import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, startProcess } from './run-cli.js';
import { createSuiteEnvironment, type SuiteEnvironment } from './suite-environment.js';

const PNPM_VERSION = '12.21.0';

/** pnpm 12 as the bootstrap finds it: the installed one, else the pinned one through npx. */
function pnpmCommand(): string[] {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  return probe.status === 0 && probe.stdout.trim().startsWith('12.')
    ? ['pnpm']
    : ['npx', '--yes', `pnpm@${PNPM_VERSION}`];
}

/** What deploy/docker/Dockerfile copies into an image: `pnpm deploy --prod` of the app's package. */
function deployBundle(app: string, target: string): Promise<void> {
  const [command, ...args] = pnpmCommand();
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args, '--filter', `@broker/${app}`, 'deploy', '--prod', target], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`pnpm deploy ${app}: ${errors}`)),
    );
  });
}

const APPS = ['import-service', 'calc-service', 'broker-service'] as const;

/** The image contents, proven without a Docker engine: each app's production bundle runs with plain node. */
describe('production bundles (the images’ contents)', () => {
  let suiteEnvironment: SuiteEnvironment;
  let bundles: string;

  beforeAll(async () => {
    suiteEnvironment = await createSuiteEnvironment({ NODE_ENV: 'production', LOG_LEVEL: 'warn' });
    bundles = mkdtempSync(join(tmpdir(), 'bundles-'));
    await Promise.all(APPS.map((app) => deployBundle(app, join(bundles, app))));
  }, 240_000);

  afterAll(async () => {
    rmSync(bundles, { recursive: true, force: true });
    await suiteEnvironment?.cleanup();
  });

  it.each([
    ['import-service', 'dist/main.js'],
    ['import-service', 'dist/worker.js'],
    ['calc-service', 'dist/main.js'],
    ['broker-service', 'dist/main.js'],
  ])('%s %s starts from its bundle alone and is ready', async (app, entry) => {
    const bundle = join(bundles, app);
    const running = await startProcess(join(bundle, entry), suiteEnvironment.env);
    try {
      const ready = await fetch(`${running.baseUrl}/health/ready`);
      expect(ready.status).toBe(200);
    } finally {
      expect(await running.terminate()).toBe(0);
    }
  });

  it.each(APPS)('%s bundle holds production dependencies only', (app) => {
    const modules = join(bundles, app, 'node_modules');
    expect(existsSync(join(modules, '@broker/platform/dist/index.js'))).toBe(true);
    for (const development of ['jest', 'typescript', '@broker/testing', 'supertest'])
      expect(existsSync(join(modules, development))).toBe(false);
  });
});
