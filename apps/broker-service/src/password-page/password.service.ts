import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { hashPassword } from '@broker/auth';
import type { CustomerClient, LinkForm } from '../customer-pages/link-page.controller.js';
import { checkPassword, type PasswordProblem } from './password-rules.js';
import { type PasswordLink, PasswordRepository } from './password.repository.js';

/** The password form's own fields as posted (urlencoded); absent fields are empty strings. */
export interface PasswordFields {
  password: string;
  repeat: string;
}

export type PasswordForm = LinkForm & PasswordFields;

export type PasswordLinkOutcome =
  { state: 'unknown' } | { state: 'open' | 'used' | 'expired'; link: PasswordLink };

export type SetPasswordOutcome =
  | Exclude<PasswordLinkOutcome, { state: 'open' }>
  | { state: 'invalid'; link: PasswordLink; problems: PasswordProblem[] }
  | { state: 'set'; link: PasswordLink; setAt: Date };

/** The customer's side of addKunde's password link: showing the form behind a link and setting the password once. */
@Injectable()
export class PasswordService {
  constructor(
    private readonly db: DataSource,
    private readonly links: PasswordRepository,
  ) {}

  async open(tenantCode: string, token: string): Promise<PasswordLinkOutcome> {
    const link = await this.links.find(this.db.manager, tenantCode, token);
    return link ? { state: link.state, link } : { state: 'unknown' };
  }

  /**
   * Checks the password against the rules and hashes it before the transaction; then stores it with the link's
   * row locked, so that of two submits racing for one link exactly one sets the password and the other finds the
   * link used. A refused form writes nothing.
   */
  async set(tenantCode: string, form: PasswordForm, client: CustomerClient): Promise<SetPasswordOutcome> {
    const opened = await this.open(tenantCode, form.token);
    if (opened.state !== 'open') return opened;
    const { customer, broker } = opened.link;
    const names = [
      customer.userName,
      customer.firstName,
      customer.lastName,
      customer.companyName,
      broker.name,
    ];
    const checked = checkPassword(form.password, form.repeat, {
      userName: customer.userName,
      // Each word of them too: "Muster" of "Muster Makler GmbH".
      personalWords: names
        .filter((name) => name !== null)
        .flatMap((name) => [name, ...name.split(/[\s.@_-]+/)]),
    });
    if ('problems' in checked) return { state: 'invalid', link: opened.link, problems: checked.problems };
    const passwordHash = await hashPassword(checked.password);
    return this.db.transaction(async (tx) => {
      const link = await this.links.find(tx, tenantCode, form.token, true);
      if (!link) return { state: 'unknown' };
      if (link.state !== 'open') return { state: link.state, link };
      return { state: 'set', link, setAt: await this.links.storePassword(tx, link, passwordHash, client) };
    });
  }
}
