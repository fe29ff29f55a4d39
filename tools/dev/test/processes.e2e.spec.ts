import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from '../src/suite.js';
import { waitFor } from '@broker/testing';
import { runScript, startProcess } from './run-cli.js';
import { createSuiteEnvironment, type SuiteEnvironment } from './suite-environment.js';

/** Every process of the suite, as `pnpm start` runs it: built output, configured by environment only. */
describe.each(suite.map((entry) => [entry.name, entry] as const))('%s process', (_name, entry) => {
  let suiteEnvironment: SuiteEnvironment;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    suiteEnvironment = await createSuiteEnvironment(entry.env);
    env = suiteEnvironment.env;
  });
  afterAll(() => suiteEnvironment?.cleanup());

  it('boots against the real services, is ready, logs JSON with request ids, and exits 0 on SIGTERM', async () => {
    const running = await startProcess(entry.script, env);
    // Live as soon as it listens; ready once its own connections are up (a readiness ping does not queue while
    // Redis is still connecting), a moment later on a busy machine.
    const ready = await waitFor(async () => {
      const answer = await fetch(`${running.baseUrl}/health/ready`);
      return answer.status === 200 ? answer : undefined;
    }, 10_000);
    expect(await ready.json()).toMatchObject({ status: 'ready', failing: [] });
    const unknown = await fetch(`${running.baseUrl}/no-such-route`, {
      headers: { 'X-Request-ID': 'trace-4711' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-request-id')).toBe('trace-4711');

    expect(await running.terminate()).toBe(0);
    const lines = running.output().trim().split('\n');
    const records = lines.map((line) => JSON.parse(line) as { req?: { id?: string }; msg?: string });
    expect(records.some((record) => record.req?.id === 'trace-4711')).toBe(true);
    expect(records.some((record) => record.msg === 'SIGTERM received, shutting down')).toBe(true);
  });

  it('keeps answering while nothing reads its log, and writes the lines once it is read again', async () => {
    const running = await startProcess(entry.script, env);
    const stalled = running.stallOutput();
    // About 600 KB of log lines: several times what the pipe and the reading stream hold together.
    const padding = 'x'.repeat(10_000);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        fetch(`${running.baseUrl}/not-here`, {
          headers: { 'X-Padding': padding, 'X-Request-ID': `stalled-${index}` },
          signal: AbortSignal.timeout(10_000),
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 404));
    const live = await fetch(`${running.baseUrl}/health/live`, { signal: AbortSignal.timeout(2_000) });
    expect(live.status).toBe(200);

    stalled.resume();
    expect(await running.terminate()).toBe(0);
    const ids = running
      .output()
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { req?: { id?: string } }).req?.id);
    expect(ids.filter((id) => id?.startsWith('stalled-'))).toHaveLength(60);
  });

  it('exits 1 once its shutdown timeout has passed while nothing reads its log', async () => {
    const running = await startProcess(entry.script, { ...env, SHUTDOWN_TIMEOUT_MS: '1500' });
    const stalled = running.stallOutput();
    const padding = 'x'.repeat(10_000);
    await Promise.all(
      Array.from({ length: 60 }, () =>
        fetch(`${running.baseUrl}/not-here`, { headers: { 'X-Padding': padding } }).then((answer) =>
          answer.text(),
        ),
      ),
    );
    const terminated = running.terminate();
    try {
      // Exited while its log is still unread: the shutdown gave up the waiting lines.
      await waitFor(
        () => (running.exitCode() === null ? undefined : true),
        10_000,
        () => 'still running',
      );
      expect(running.exitCode()).toBe(1);
    } finally {
      stalled.resume();
    }
    expect(await terminated).toBe(1);
  });

  it.each([
    [
      { DATABASE_URL: undefined },
      'Configuration error: DATABASE_URL is required (a postgres:// connection URL)',
    ],
    [
      { DATABASE_URL: 'mysql://localhost/x' },
      'Configuration error: DATABASE_URL must be a postgres:// connection URL',
    ],
    [{ PORT: 'eighty' }, 'Configuration error: PORT must be a TCP port number'],
    [
      { LOG_LEVEL: 'chatty' },
      'Configuration error: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    ],
  ])('stops with one readable line for a bad variable: %j', async (override, line) => {
    const result = await runScript(entry.script, [], { ...env, ...override });
    expect(result.code).toBe(78);
    expect(result.stderr).toBe(`${line}\n`);
    expect(result.stdout).toBe('');
  });

  if (entry.usesRedis) {
    it('stops with one readable line when REDIS_URL is missing', async () => {
      const result = await runScript(entry.script, [], { ...env, REDIS_URL: undefined });
      expect(result.code).toBe(78);
      expect(result.stderr).toBe('Configuration error: REDIS_URL is required (a redis:// connection URL)\n');
    });
  }

  if (entry.name === 'import-service') {
    it('stops with one readable line when neither a JWKS URL nor a public key is configured', async () => {
      const result = await runScript(entry.script, [], { ...env, IMPORT_OAUTH_JWKS_URL: undefined });
      expect(result.code).toBe(78);
      expect(result.stderr).toBe(
        'Configuration error: IMPORT_OAUTH_JWKS_URL or IMPORT_OAUTH_PUBLIC_KEY is required\n',
      );
    });
  }

  if (entry.name === 'calc-service') {
    it('stops with the catalog problems listed when the tariff catalog is invalid', async () => {
      const catalog = join(tmpdir(), `catalog-${randomBytes(4).toString('hex')}.json`);
      writeFileSync(catalog, JSON.stringify({ version: 'x', providers: [{ id: 1 }] }));
      try {
        const result = await runScript(entry.script, [], { ...env, CALC_PRIVATE_LIABILITY_CATALOG: catalog });
        expect(result.code).toBe(78);
        expect(result.stderr).toMatch(/^calc-service cannot start: Invalid catalog .+ \(\d+ problems\):\n/);
        expect(result.stderr).toContain('  - providers[0].id: must be a string\n');
        expect(result.stderr).not.toMatch(/\bat .+:\d+:\d+/);
      } finally {
        rmSync(catalog, { force: true });
      }
    });
  }
});
