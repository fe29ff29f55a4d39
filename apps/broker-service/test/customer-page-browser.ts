import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { findFreePort } from '@broker/local-services';
import { ensureDebianPackage, waitFor } from '@broker/testing';
import { type EmployeeTestService, startEmployeeTestService } from './employee-support.js';
import { TestMailServer } from './message-receivers.js';

const CHROMIUM = '/usr/bin/chromium';

/** `describe` where Debian's Chromium is (installed with apt-get when missing), else `describe.skip` with a note. */
export function describeWithChromium(suite: string): jest.Describe {
  if (ensureDebianPackage('chromium', () => existsSync(CHROMIUM))) return describe;
  process.stderr.write(
    `${suite}: SKIPPED, Debian chromium is missing and could not be installed (needs root and apt)\n`,
  );
  return describe.skip;
}

/**
 * The broker service listening on a port of its own, with a test SMTP server for the links, and headless
 * Chromium to open them as a customer's phone would. Screenshots go to test-artifacts/{artifactsFolder}.
 */
export class CustomerPageBrowser {
  /** What the pages did wrong: script errors, CSP violations, failed loads of stylesheets or scripts. */
  readonly pageProblems: string[] = [];
  readonly artifacts: string;

  private constructor(
    readonly service: EmployeeTestService,
    readonly mail: TestMailServer,
    readonly browser: Browser,
    readonly baseUrl: string,
    artifactsFolder: string,
  ) {
    this.artifacts = join(__dirname, '..', 'test-artifacts', artifactsFolder);
    mkdirSync(this.artifacts, { recursive: true });
  }

  static async start(artifactsFolder: string): Promise<CustomerPageBrowser> {
    const mail = await TestMailServer.start();
    const port = await findFreePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const service = await startEmployeeTestService({
      SMTP_URL: mail.url,
      CUSTOMER_BASE_URL: baseUrl,
      NOTIFY_SWEEP_INTERVAL_MS: '300',
    });
    await service.app.listen(port, '127.0.0.1');
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      // Chromium's sandbox refuses to run as root.
      args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
    });
    return new CustomerPageBrowser(service, mail, browser, baseUrl, artifactsFolder);
  }

  async close(): Promise<void> {
    await this.browser.close();
    await this.service.close();
    await this.mail.close();
  }

  /** A fresh browser context (no cookies) shaped like a phone. */
  async newPage(): Promise<Page> {
    const context = await this.browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
    });
    const page = await context.newPage();
    // A document's own 404 or 410 is what a test asks for; the console reports it as a failed load too.
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        this.pageProblems.push(message.text());
    });
    page.on('pageerror', (error) => this.pageProblems.push(error.message));
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'document' && response.status() >= 400)
        this.pageProblems.push(`${response.status()} ${response.url()}`);
    });
    return page;
  }

  screenshot(page: Page, name: string): Promise<Buffer> {
    return page.screenshot({ path: join(this.artifacts, `${name}.png`), fullPage: true });
  }

  /** The `number`-th mail to `address` (0 first) once the SMTP server has it, and the link in it of `page`. */
  async linkInMail(address: string, number: number, page: string): Promise<string> {
    const message = await waitFor(
      () => this.mail.mails.filter((received) => received.to.includes(address))[number],
    );
    const link = new RegExp(`(http://\\S+/${page}\\?token=[\\w-]{43})`).exec(message.text)?.[1];
    if (!link) throw new Error(`No ${page} link in the mail:\n${message.text}`);
    return link;
  }

  mailsTo(address: string): number {
    return this.mail.mails.filter((received) => received.to.includes(address)).length;
  }
}

/** Presses Tab until the focused element is the one wanted; fails when it never comes. */
export async function tabTo(page: Page, selector: string): Promise<void> {
  for (let presses = 0; presses < 30; presses++) {
    await page.keyboard.press('Tab');
    if (await page.locator(selector).evaluate((element) => element === element.ownerDocument.activeElement))
      return;
  }
  throw new Error(`Tab never reached ${selector}`);
}
