import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allMigrations } from '@broker/db';
import { createEmptyDatabase } from '@broker/testing';
import { PINNED_NODE } from './pinned-node.js';
import { REPO_ROOT, runScript, startProcess } from './run-cli.js';
import { createSuiteEnvironment, type SuiteEnvironment } from './suite-environment.js';

const PNPM_VERSION = '12.21.0';
/** The migration entry point every app bundle carries (compose's migrate service, the Kubernetes Job). */
const MIGRATE_ENTRY = 'node_modules/@broker/db/dist/migrate-main.js';

/** pnpm 12 as the bootstrap finds it: the installed one, else the pinned one through npx. */
function pnpmCommand(): string[] {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  return probe.status === 0 && probe.stdout.trim().startsWith('12.')
    ? ['pnpm']
    : ['npx', '--yes', `pnpm@${PNPM_VERSION}`];
}

/** What an app's Dockerfile says about its image, read from the file itself so the test follows it. */
interface ImageRecipe {
  bases: string[];
  /** The pnpm arguments of the bundle step, without its target directory. */
  deployArguments: string[];
  user: string | undefined;
  healthPath: string | undefined;
  command: string[];
}

function readDockerfile(app: string): ImageRecipe {
  const text = readFileSync(join(REPO_ROOT, 'deploy/docker', `${app}.Dockerfile`), 'utf8');
  const deploy = /pnpm (--filter "[^"]+" deploy --prod) \/bundle/.exec(text)?.[1] ?? '';
  return {
    bases: [...text.matchAll(/^FROM (\S+)/gm)].map((match) => match[1]),
    deployArguments: deploy.replace(/"/g, '').split(' '),
    user: /^USER (\S+)$/m.exec(text)?.[1],
    healthPath: /^HEALTHCHECK [\s\S]*?(\/health\/\w+)/m.exec(text)?.[1],
    command: JSON.parse(/^CMD (\[.*\])$/m.exec(text)?.[1] ?? '[]') as string[],
  };
}

/**
 * The bundle the Dockerfile copies into its image, made the same way into `target`; from the store the install
 * filled (`--offline`), so the test command needs no registry once installed (an image build fetches as usual).
 * A store whose metadata cache lacks a package (a frozen install does not write the full metadata pnpm's
 * supply-chain check reads) is completed from the registry once (`--prefer-offline`).
 */
async function deployBundle(recipe: ImageRecipe, target: string): Promise<void> {
  try {
    await runDeploy(recipe, target, '--offline');
  } catch (error) {
    if (!String(error).includes('ERR_PNPM_NO_OFFLINE_META')) throw error;
    rmSync(target, { recursive: true, force: true });
    await runDeploy(recipe, target, '--prefer-offline');
  }
}

function runDeploy(recipe: ImageRecipe, target: string, networkMode: string): Promise<void> {
  const [command, ...args] = pnpmCommand();
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args, ...recipe.deployArguments, networkMode, target], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`pnpm ${recipe.deployArguments.join(' ')} ${networkMode}: ${output}`)),
    );
  });
}

const APPS = ['import-service', 'calc-service', 'broker-service', 'admin-service'] as const;
const recipes = Object.fromEntries(APPS.map((app) => [app, readDockerfile(app)])) as Record<
  (typeof APPS)[number],
  ImageRecipe
>;

describe.each(APPS)('deploy/docker/%s.Dockerfile', (app) => {
  const recipe = recipes[app];

  it('builds in one stage and runs in another on the pinned Node’s slim base, as the unprivileged node user', () => {
    expect(recipe.bases).toEqual([`node:${PINNED_NODE}-bookworm-slim`, `node:${PINNED_NODE}-bookworm-slim`]);
    expect(recipe.user).toBe('node');
  });

  it('bundles its own app with production dependencies only, and checks its liveness', () => {
    expect(recipe.deployArguments).toEqual(['--filter', `@broker/${app}`, 'deploy', '--prod']);
    expect(recipe.healthPath).toBe('/health/live');
    expect(recipe.command).toEqual(['node', 'dist/main.js']);
  });
});

/** The image contents, proven without a Docker engine: each app's production bundle runs with plain node. */
describe('production bundles (the images’ contents)', () => {
  let suiteEnvironment: SuiteEnvironment;
  let bundles: string;

  beforeAll(async () => {
    suiteEnvironment = await createSuiteEnvironment({
      NODE_ENV: 'production',
      TRUSTED_PROXIES: 'loopback',
      LOG_LEVEL: 'warn',
    });
    bundles = mkdtempSync(join(tmpdir(), 'bundles-'));
    await Promise.all(APPS.map((app) => deployBundle(recipes[app], join(bundles, app))));
  }, 240_000);

  // Five bundles of some thousand files each take a while to remove on a busy machine.
  afterAll(async () => {
    rmSync(bundles, { recursive: true, force: true });
    await suiteEnvironment?.cleanup();
  }, 120_000);

  it.each([
    ['import-service', recipes['import-service'].command],
    ['import-service', ['node', 'dist/worker.js']],
    ['calc-service', recipes['calc-service'].command],
    ['broker-service', recipes['broker-service'].command],
    ['admin-service', recipes['admin-service'].command],
  ])('%s: %j starts from its bundle alone and is live and ready', async (app, [, entry]) => {
    const bundle = join(bundles, app);
    const running = await startProcess(join(bundle, entry), suiteEnvironment.env);
    try {
      expect(
        (await fetch(`${running.baseUrl}${recipes[app as (typeof APPS)[number]].healthPath}`)).status,
      ).toBe(200);
      expect((await fetch(`${running.baseUrl}/health/ready`)).status).toBe(200);
    } finally {
      expect(await running.terminate()).toBe(0);
    }
  });

  it('the migration step of a deployment runs from a bundle: all migrations into an empty database, then none', async () => {
    const database = await createEmptyDatabase();
    try {
      const migrate = () =>
        runScript(join(bundles, 'broker-service', MIGRATE_ENTRY), [], { DATABASE_URL: database.url });
      const first = await migrate();
      expect(first).toMatchObject({ code: 0, stdout: expect.stringContaining('Applied') as unknown });
      const second = await migrate();
      expect(second).toMatchObject({
        code: 0,
        stdout: expect.stringContaining('No pending migrations') as unknown,
      });
      expect(second.stdout).toContain(`${allMigrations.length} migrations applied in total`);
    } finally {
      await database.drop();
    }
  });

  it.each(APPS)('%s bundle holds production dependencies only', (app) => {
    const modules = join(bundles, app, 'node_modules');
    expect(existsSync(join(modules, '@broker/platform/dist/index.js'))).toBe(true);
    for (const development of ['jest', 'typescript', '@broker/testing', 'supertest'])
      expect(existsSync(join(modules, development))).toBe(false);
  });

  it.each(APPS)('%s bundle holds built code, not the sources and tests of the app or its libs', (app) => {
    const bundle = join(bundles, app);
    const workspacePackages = [
      bundle,
      ...readdirSync(join(bundle, 'node_modules/@broker')).map((name) =>
        join(bundle, 'node_modules/@broker', name),
      ),
    ];
    for (const root of workspacePackages)
      for (const development of ['src', 'test', 'tsconfig.json', 'jest.config.js'])
        expect({ root, development, present: existsSync(join(root, development)) }).toEqual({
          root,
          development,
          present: false,
        });
  });
});
