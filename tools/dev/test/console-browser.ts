import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { insertBrokerFixture } from '@broker/fixtures';
import { findFreePort } from '@broker/local-services';
import {
  collectPageProblems,
  launchChromium,
  type OidcAuthorizationServer,
  type OidcPerson,
  startConsoleProvider,
} from '@broker/testing';
import { type RunningGateway, startGateway } from './gateway-process.js';
import { type RunningProcess, startPlatformProcesses, startProcess } from './run-cli.js';
import { createSuiteEnvironment, type SuiteEnvironment } from './suite-environment.js';

/**
 * The whole platform from its built processes behind the gateway (nginx with the deployment's template), the
 * console configured as a client of a real OpenID provider (oidc-provider, with login and consent pages), and
 * headless Chromium; the database holds the broker fixture (tenant demo). Screenshots go to tools/dev/test-artifacts/{artifactsFolder}.
 */
export class ConsoleBrowser {
  readonly pageProblems: string[] = [];
  private readonly artifacts: string;
  private workerStopped = false;

  private constructor(
    readonly suite: SuiteEnvironment,
    readonly provider: OidcAuthorizationServer,
    readonly services: Record<'import' | 'worker' | 'calc' | 'broker' | 'admin', RunningProcess>,
    readonly gateway: RunningGateway,
    readonly browser: Browser,
    artifactsFolder: string,
  ) {
    this.artifacts = join(__dirname, '..', 'test-artifacts', artifactsFolder);
    mkdirSync(this.artifacts, { recursive: true });
  }

  /** `overrides`: more variables of the services. */
  static async start(artifactsFolder: string, overrides: NodeJS.ProcessEnv = {}): Promise<ConsoleBrowser> {
    const port = await findFreePort();
    const consoleUrl = `http://127.0.0.1:${port}/admin/console`;
    const { provider, adminEnv } = await startConsoleProvider(consoleUrl);
    const suite = await createSuiteEnvironment({ ...adminEnv, LOG_LEVEL: 'warn', ...overrides });
    await insertBrokerFixture(String(suite.env.DATABASE_URL));
    const services = await startPlatformProcesses(suite.env);
    const gateway = await startGateway(
      services,
      {
        GATEWAY_RATE_PER_SECOND: '500',
        GATEWAY_RATE_BURST: '1000',
        GATEWAY_MAX_BODY_BYTES: String(1024 * 1024),
        GATEWAY_MAX_UPLOAD_BYTES: String(16 * 1024 * 1024),
      },
      port,
    );
    return new ConsoleBrowser(suite, provider, services, gateway, await launchChromium(), artifactsFolder);
  }

  get consoleUrl(): string {
    return `${this.gateway.url}/admin/console`;
  }

  async close(): Promise<void> {
    await this.browser.close();
    this.gateway.stop();
    await Promise.all(Object.values(this.services).map((service) => service.terminate()));
    await this.provider.close();
    await this.suite.cleanup();
  }

  /** Stops the import worker (imports then wait in their status), or starts it again. */
  async stopWorker(): Promise<void> {
    await this.services.worker.terminate();
    this.workerStopped = true;
  }

  /** Starts the worker unless it runs. */
  async startWorker(): Promise<void> {
    if (!this.workerStopped) return;
    this.services.worker = await startProcess('apps/import-service/dist/worker.js', this.suite.env);
    this.workerStopped = false;
  }

  /** An upload of `file` through the gateway to area A, as broker V1000's portal makes it: the process id. */
  async uploadImport(file: Buffer, name = 'bestand.gdv'): Promise<string> {
    const form = new FormData();
    form.append('companies[0]', '9999');
    form.append('file', new Blob([new Uint8Array(file)]), name);
    const answer = await fetch(`${this.gateway.url}/api/v1/import`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await this.suite.importToken()}` },
      body: form,
    });
    if (answer.status !== 200) throw new Error(`Upload answered ${answer.status}: ${await answer.text()}`);
    return ((await answer.json()) as { process_id: string }).process_id;
  }

  /** A fresh browser (no cookies) with a desktop window. */
  async newPage(): Promise<Page> {
    const context = await this.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    // A step that never happens fails with its own message, well before the test's timeout.
    page.setDefaultTimeout(10_000);
    collectPageProblems(page, this.pageProblems);
    return page;
  }

  screenshot(page: Page, name: string): Promise<Buffer> {
    return page.screenshot({ path: join(this.artifacts, `${name}.png`), fullPage: true });
  }

  /**
   * Logs `person` in with the keyboard alone: the console sends the browser to the provider's login page (user name
   * field focused), then to consent the first time; back at the console, its first page is shown.
   */
  async logIn(page: Page, person: OidcPerson, screenshotPrefix?: string): Promise<void> {
    await page.goto(`${this.consoleUrl}/`);
    await page.getByRole('heading', { name: 'Anmelden' }).waitFor();
    if (screenshotPrefix) await this.screenshot(page, `${screenshotPrefix}-provider-login`);
    await page.keyboard.type(person.username);
    await page.keyboard.press('Tab');
    await page.keyboard.type(person.password);
    await page.keyboard.press('Enter');
    const consent = page.getByRole('button', { name: 'Erlauben' });
    const console = page.getByRole('navigation', { name: 'Hauptnavigation' });
    await consent.or(console).waitFor();
    if (await consent.isVisible()) {
      if (screenshotPrefix) await this.screenshot(page, `${screenshotPrefix}-provider-consent`);
      await page.keyboard.press('Enter');
    }
    await console.waitFor();
  }
}

/** Serious or critical accessibility violations axe-core finds on the page (their rule and the elements). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const { AxeBuilder } = await import('@axe-core/playwright');
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}
