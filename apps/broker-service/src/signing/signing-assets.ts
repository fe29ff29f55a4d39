import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { DomainError } from '@broker/errors';
import { sha256Hex } from '../notifications/link-tokens.js';
import type { PageContext } from './pages.js';
import { signingPagePath } from './signing-path.js';

/** apps/broker-service/assets/signing, from src/signing as from dist/signing. */
const ASSET_DIRECTORY = join(__dirname, '..', '..', 'assets', 'signing');
const CONTENT_TYPES: Record<string, string> = {
  'signing.css': 'text/css; charset=utf-8',
  'signing.js': 'text/javascript; charset=utf-8',
};

export interface Asset {
  contentType: string;
  content: Buffer;
}

/**
 * The page's stylesheet and script, read once at start and served by the service itself. Their URLs carry a
 * hash of their content, so a browser never mixes a cached old script with a new page.
 */
@Injectable()
export class SigningAssets {
  private readonly files = new Map<string, Asset>(
    Object.entries(CONTENT_TYPES).map(([name, contentType]) => [
      name,
      { contentType, content: readFileSync(join(ASSET_DIRECTORY, name)) },
    ]),
  );
  private readonly version = sha256Hex(
    Buffer.concat([...this.files.values()].map((file) => file.content)),
  ).slice(0, 12);

  context(tenantCode: string): PageContext {
    const base = signingPagePath(tenantCode);
    return {
      base,
      stylesheet: `${base}/assets/signing.css?v=${this.version}`,
      script: `${base}/assets/signing.js?v=${this.version}`,
    };
  }

  file(name: string): Asset {
    const file = this.files.get(name);
    if (!file) throw DomainError.notFound(`No asset ${name}`);
    return file;
  }
}
