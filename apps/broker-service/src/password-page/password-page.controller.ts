import { Catch, Controller, Injectable, UseFilters } from '@nestjs/common';
import { ClientAddresses } from '@broker/platform';
import { LinkFormCsrf } from '../customer-pages/csrf.js';
import { type CustomerClient, LinkPageController } from '../customer-pages/link-page.controller.js';
import { CustomerPageAssets } from '../customer-pages/page-assets.js';
import { type CustomerPage, customerPageRoute } from '../customer-pages/page-paths.js';
import { CustomerPageFilter } from '../customer-pages/page-response.js';
import type { PageContext } from '../customer-pages/page-shell.js';
import { RateLimitedPage } from '../customer-pages/rate-limit.js';
import { passwordOutcomePage } from './password-pages.js';
import {
  type PasswordFields,
  type PasswordForm,
  type PasswordLinkOutcome,
  PasswordService,
  type SetPasswordOutcome,
} from './password.service.js';

const PAGE: CustomerPage = 'passwort-setzen';

@Catch()
@Injectable()
export class PasswordPageFilter extends CustomerPageFilter {
  constructor(assets: CustomerPageAssets) {
    super(assets, PAGE);
  }
}

/** The page behind addKunde's password link: GET shows the form, POST sets the password. */
@Controller(customerPageRoute(PAGE))
@UseFilters(PasswordPageFilter)
@RateLimitedPage(PAGE)
export class PasswordPageController extends LinkPageController<
  PasswordFields,
  PasswordLinkOutcome | SetPasswordOutcome
> {
  constructor(
    private readonly passwords: PasswordService,
    assets: CustomerPageAssets,
    csrf: LinkFormCsrf,
    clients: ClientAddresses,
  ) {
    super(PAGE, assets, csrf, clients);
  }

  protected open(tenant: string, token: string): Promise<PasswordLinkOutcome> {
    return this.passwords.open(tenant, token);
  }

  protected emptyFields(): PasswordFields {
    return { password: '', repeat: '' };
  }

  protected readFields(text: (name: string) => string): PasswordFields {
    return { password: text('password'), repeat: text('repeat') };
  }

  protected submit(tenant: string, form: PasswordForm, client: CustomerClient): Promise<SetPasswordOutcome> {
    return this.passwords.set(tenant, form, client);
  }

  protected render(
    context: PageContext,
    outcome: PasswordLinkOutcome | SetPasswordOutcome,
    form: PasswordForm,
  ) {
    return passwordOutcomePage(context, outcome, form);
  }
}
