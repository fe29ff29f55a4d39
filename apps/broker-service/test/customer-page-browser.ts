import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { findFreePort } from '@broker/local-services';
import { collectPageProblems, launchChromium, TestMailServer, waitFor } from '@broker/testing';
import { type EmployeeTestService, startEmployeeTestService } from './employee-support.js';

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
    const browser = await launchChromium();
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
    collectPageProblems(page, this.pageProblems);
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
