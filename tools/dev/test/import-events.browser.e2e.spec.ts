import 'reflect-metadata';
import {
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  openAsBlob,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { IMPORT_PIPELINE_STATUSES } from '@broker/contracts';
import { insertBrokerFixture } from '@broker/fixtures';
import {
  collectPageProblems,
  describeWithChromium,
  launchChromium,
  writeGdvPortfolio,
} from '@broker/testing';
import { nginxInstalled, type RunningGateway, startImportGateway } from './gateway-process.js';
import { type RunningProcess, startProcesses } from './run-cli.js';
import { createSuiteEnvironment, type SuiteEnvironment } from './suite-environment.js';

const ARTIFACTS = path.join(__dirname, '..', 'test-artifacts', 'import-events-browser');
const THROUGH_PROCESSED = IMPORT_PIPELINE_STATUSES.slice(
  0,
  IMPORT_PIPELINE_STATUSES.indexOf('processed') + 1,
);

/** docs/import-events.md's backend-proxy example, the code block after `<!-- example: browser-proxy -->`. */
function documentedExample(): string {
  const page = readFileSync(path.join(__dirname, '../../../docs/import-events.md'), 'utf8');
  const code = /<!-- example: browser-proxy -->\s*```ts\n([\s\S]*?)```/.exec(page)?.[1];
  if (!code) throw new Error('docs/import-events.md has no browser-proxy example');
  return code;
}

interface PortalBackend {
  url: string;
  close(): Promise<void>;
}

const describeInBrowser = nginxInstalled('import events in a browser')
  ? describeWithChromium('import events in a browser')
  : describe.skip;

/**
 * docs/import-events.md's way for a browser portal to follow an import: the portal's backend proxies the stream
 * with the import token; the page's EventSource follows it on the portal's origin, under a strict CSP.
 */
describeInBrowser('import events in a browser, through the portal’s backend and the gateway', () => {
  let suite: SuiteEnvironment;
  let services: Record<'api' | 'worker', RunningProcess>;
  let gateway: RunningGateway;
  let browser: Browser;
  let backend: PortalBackend;
  let fileDir: string;
  const uploadedByUser = new Set<string>();
  const exampleFile = path.join(__dirname, `.browser-proxy-example-${process.pid}.ts`);

  beforeAll(async () => {
    suite = await createSuiteEnvironment({ LOG_LEVEL: 'warn', IMPORT_EVENTS_HEARTBEAT_MS: '300' });
    await insertBrokerFixture(String(suite.env.DATABASE_URL));
    services = await startProcesses({
      api: { script: 'apps/import-service/dist/main.js', env: suite.env },
      worker: { script: 'apps/import-service/dist/worker.js', env: suite.env },
    });
    gateway = await startImportGateway(services.api, 64 * 1024 * 1024);
    writeFileSync(exampleFile, documentedExample());
    const { startPortalBackend } = (await import(exampleFile)) as {
      startPortalBackend(settings: object): Promise<PortalBackend>;
    };
    backend = await startPortalBackend({
      importBaseUrl: `${gateway.url}/api/v1`,
      token: () => suite.importToken(),
      // The portal's user may follow the imports this test uploaded for them, and no other.
      mayFollow: (_request: unknown, processId: string) => Promise.resolve(uploadedByUser.has(processId)),
    });
    browser = await launchChromium();
    fileDir = mkdtempSync(path.join(tmpdir(), 'import-events-browser-'));
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await backend?.close();
    gateway?.stop();
    await Promise.all(Object.values(services ?? {}).map((service) => service.terminate()));
    rmSync(exampleFile, { force: true });
    if (fileDir) rmSync(fileDir, { recursive: true, force: true });
    await suite?.cleanup();
  });

  async function upload(contracts: number): Promise<string> {
    const file = path.join(fileDir, `browser-${contracts}.gdv`);
    await new Promise<void>((resolve, reject) => {
      const out = createWriteStream(file).on('finish', resolve).on('error', reject);
      void writeGdvPortfolio(out, { contracts, policyPrefix: `BRW${contracts}` }).then(
        () => out.end(),
        reject,
      );
    });
    const form = new FormData();
    form.append('companies[0]', '9999');
    form.append('file', await openAsBlob(file), 'bestand.gdv');
    const answer = await fetch(`${gateway.url}/api/v1/import`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await suite.importToken()}` },
      body: form,
    });
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { process_id: string }).process_id;
  }

  it('shows every status of an import as it happens, and its end, with no token in any URL', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    collectPageProblems(page, problems);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    try {
      const processId = await upload(5_000);
      uploadedByUser.add(processId);
      const answer = await page.goto(`${backend.url}/?process=${processId}`);
      expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");
      await page.locator('#state', { hasText: 'Ende: processed' }).waitFor({ timeout: 60_000 });
      expect(await page.locator('#statuses li').allTextContents()).toEqual(THROUGH_PROCESSED);
      await page.screenshot({ path: path.join(ARTIFACTS, 'followed-to-the-end.png'), fullPage: true });
      expect(problems).toEqual([]);
      expect(requested).toContain(`${backend.url}/imports/${processId}/events`);
      expect(requested.every((url) => url.startsWith(backend.url) && !/token|bearer/i.test(url))).toBe(true);

      // The proxy passes Last-Event-ID on: after the end event's id, the service's 204 ends a browser's reconnecting.
      const whole = await (await fetch(`${backend.url}/imports/${processId}/events`)).text();
      const endId = /^id: (\S+)\nevent: end$/m.exec(whole)?.[1];
      expect(endId).toMatch(/\.end$/);
      const resumed = await fetch(`${backend.url}/imports/${processId}/events`, {
        headers: { 'Last-Event-ID': endId! },
      });
      expect(resumed.status).toBe(204);

      // Another import of the broker, not this user's: the portal does not pass its stream on.
      const notTheirs = await upload(100);
      expect((await fetch(`${backend.url}/imports/${notTheirs}/events`)).status).toBe(404);
    } finally {
      await page.close();
    }
  }, 90_000);
});
