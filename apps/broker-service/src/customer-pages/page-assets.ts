import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { DomainError } from '@broker/errors';
import { sha256Hex } from '../notifications/link-tokens.js';
import { type CustomerPage, customerPagePath } from './page-paths.js';
import type { PageContext } from './page-shell.js';

/** apps/broker-service/assets/customer-pages, from src/customer-pages as from dist/customer-pages. */
const ASSET_DIRECTORY = join(__dirname, '..', '..', 'assets', 'customer-pages');
const STYLESHEET = 'customer-pages.css';
const CONTENT_TYPES: Record<string, string> = {
  [STYLESHEET]: 'text/css; charset=utf-8',
  'signing.js': 'text/javascript; charset=utf-8',
};
/** The script of each page; a page without one works as plain HTML forms. */
const SCRIPTS: Record<CustomerPage, string | null> = { unterschrift: 'signing.js', 'passwort-setzen': null };

export interface Asset {
  contentType: string;
  content: Buffer;
}

/**
 * The pages' stylesheet and scripts, read once at start and served by the service itself under each page's path.
 * Their URLs carry a hash of their content, so a browser never mixes a cached old script with a new page.
 */
@Injectable()
export class CustomerPageAssets {
  private readonly files = new Map<string, Asset>(
    Object.entries(CONTENT_TYPES).map(([name, contentType]) => [
      name,
      { contentType, content: readFileSync(join(ASSET_DIRECTORY, name)) },
    ]),
  );
  private readonly version = sha256Hex(
    Buffer.concat([...this.files.values()].map((file) => file.content)),
  ).slice(0, 12);

  context(tenantCode: string, page: CustomerPage): PageContext {
    const base = customerPagePath(tenantCode, page);
    const script = SCRIPTS[page];
    return {
      base,
      stylesheet: `${base}/assets/${STYLESHEET}?v=${this.version}`,
      script: script && `${base}/assets/${script}?v=${this.version}`,
    };
  }

  file(name: string): Asset {
    const file = this.files.get(name);
    if (!file) throw DomainError.notFound(`No asset ${name}`);
    return file;
  }
}
