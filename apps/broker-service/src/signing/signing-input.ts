import type { PipeTransform } from '@nestjs/common';
import { DomainError } from '@broker/errors';
import { LINK_TOKEN_PATTERN } from '../notifications/link-tokens.js';
import type { SigningForm } from './signature-form.js';

/** The form of broker.tenant.code. */
const TENANT_CODE = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** A part of a signature link (tenant, token) that must match its pattern; anything else is an unknown link. */
class LinkPartPipe implements PipeTransform<unknown, string> {
  constructor(private readonly pattern: RegExp) {}

  transform(value: unknown): string {
    if (typeof value === 'string' && this.pattern.test(value)) return value;
    throw DomainError.notFound('No such signature link');
  }
}

export const TenantCodePipe = new LinkPartPipe(TENANT_CODE);
export const LinkTokenPipe = new LinkPartPipe(LINK_TOKEN_PATTERN);

/** The posted form: its link token checked like the query's, every other field read as text (absent: ''). */
export class SigningFormPipe implements PipeTransform<unknown, SigningForm> {
  transform(body: unknown): SigningForm {
    const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const text = (name: string) => (typeof fields[name] === 'string' ? fields[name] : '');
    return {
      token: LinkTokenPipe.transform(fields.token),
      csrf: text('csrf'),
      signature: text('signature'),
      typedName: text('typedName'),
      consent: text('consent') === 'ja',
    };
  }
}
