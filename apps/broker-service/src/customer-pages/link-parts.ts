import type { PipeTransform } from '@nestjs/common';
import { DomainError } from '@broker/errors';
import { LINK_TOKEN_PATTERN } from '../notifications/link-tokens.js';

/** The form of broker.tenant.code. */
const TENANT_CODE = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** A part of a customer's link (tenant, token) that must match its pattern; anything else is an unknown link. */
class LinkPartPipe implements PipeTransform<unknown, string> {
  constructor(private readonly pattern: RegExp) {}

  transform(value: unknown): string {
    if (typeof value === 'string' && this.pattern.test(value)) return value;
    throw DomainError.notFound('No such link');
  }
}

export const TenantCodePipe = new LinkPartPipe(TENANT_CODE);
export const LinkTokenPipe = new LinkPartPipe(LINK_TOKEN_PATTERN);

/** The text fields of a posted form (absent or not text: ''). */
export function formFields(body: unknown): (name: string) => string {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  return (name) => (typeof fields[name] === 'string' ? fields[name] : '');
}

/** A link of broker.customer_link_token as its page sees it; the state by the database clock, as the expiry was set. */
export interface LinkState {
  id: string;
  tenantId: string;
  customerId: string;
  state: 'open' | 'used' | 'expired';
  expiresAt: Date;
  usedAt: Date | null;
}

/** The columns of LinkState, of broker.customer_link_token as `t`. */
export const LINK_STATE_COLUMNS = `t.id::text, t.tenant_id::text AS "tenantId", t.customer_id::text AS "customerId",
  CASE WHEN t.used_at IS NOT NULL THEN 'used' WHEN t.expires_at <= now() THEN 'expired' ELSE 'open' END AS state,
  t.expires_at AS "expiresAt", t.used_at AS "usedAt"`;
