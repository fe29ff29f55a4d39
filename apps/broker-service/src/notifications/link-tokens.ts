import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export type LinkPurpose = 'passwort' | 'maklervollmacht';

/** How long a link stays usable. */
export const LINK_LIFETIME_HOURS: Record<LinkPurpose, number> = { passwort: 72, maklervollmacht: 14 * 24 };

/** What `issue` hands out: 32 random bytes in base64url. */
export const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/**
 * Single-use link tokens: 32 random bytes (base64url) handed out once, stored only as their sha256 with an
 * expiry; the portal that redeems a link marks it used.
 */
@Injectable()
export class LinkTokens {
  async issue(
    db: EntityManager,
    tenantId: string,
    customerId: string,
    purpose: LinkPurpose,
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await db.query(
      `INSERT INTO broker.customer_link_token (tenant_id, customer_id, purpose, token_sha256, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(hours => $5))`,
      [tenantId, customerId, purpose, sha256Hex(token), LINK_LIFETIME_HOURS[purpose]],
    );
    return token;
  }
}
