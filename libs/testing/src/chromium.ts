import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { ensureDebianPackage } from './debian-package.js';

const CHROMIUM = '/usr/bin/chromium';

/** `describe` where Debian's Chromium is (installed with apt-get when missing), else `describe.skip` with a note. */
export function describeWithChromium(suite: string): jest.Describe {
  if (ensureDebianPackage('chromium', () => existsSync(CHROMIUM))) return describe;
  process.stderr.write(
    `${suite}: SKIPPED, Debian chromium is missing and could not be installed (needs root and apt)\n`,
  );
  return describe.skip;
}

/** Headless Debian Chromium, driven by playwright-core (loaded here: most test files never start a browser). */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Chromium's sandbox refuses to run as root.
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
}

/**
 * Collects what a page does wrong into `problems`: script errors, console errors (CSP violations among them) and
 * failed loads of anything but the document itself (a document's own 404 or 410 is what a test may ask for).
 */
export function collectPageProblems(page: Page, problems: string[]): void {
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'document' && response.status() >= 400)
      problems.push(`${response.status()} ${response.url()}`);
  });
}

/** Presses Tab until the focused element is the one wanted; fails when it never comes. */
export async function tabTo(page: Page, selector: string): Promise<void> {
  for (let presses = 0; presses < 40; presses++) {
    await page.keyboard.press('Tab');
    const focused = await page
      .locator(selector)
      .evaluate(
        (element: { ownerDocument: { activeElement: unknown } }) =>
          element === element.ownerDocument.activeElement,
      );
    if (focused) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}
