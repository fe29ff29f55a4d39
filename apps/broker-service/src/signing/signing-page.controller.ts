import { Catch, Controller, Injectable, UseFilters } from '@nestjs/common';
import { ClientAddresses } from '@broker/platform';
import { LinkFormCsrf } from '../customer-pages/csrf.js';
import { type CustomerClient, LinkPageController } from '../customer-pages/link-page.controller.js';
import { CustomerPageAssets } from '../customer-pages/page-assets.js';
import { type CustomerPage, customerPageRoute } from '../customer-pages/page-paths.js';
import { CustomerPageFilter } from '../customer-pages/page-response.js';
import type { PageContext } from '../customer-pages/page-shell.js';
import { RateLimitedPage } from '../customer-pages/rate-limit.js';
import type { SignatureFields, SigningForm } from './signature-form.js';
import { outcomePage } from './signing-pages.js';
import { type LinkOutcome, type SignOutcome, SigningService } from './signing.service.js';

const PAGE: CustomerPage = 'unterschrift';

@Catch()
@Injectable()
export class SigningPageFilter extends CustomerPageFilter {
  constructor(assets: CustomerPageAssets) {
    super(assets, PAGE);
  }
}

/** The page behind the link of sendUnterschrifftenlink: GET shows the mandate and the form, POST signs. */
@Controller(customerPageRoute(PAGE))
@UseFilters(SigningPageFilter)
@RateLimitedPage(PAGE)
export class SigningPageController extends LinkPageController<SignatureFields, LinkOutcome | SignOutcome> {
  constructor(
    private readonly signing: SigningService,
    assets: CustomerPageAssets,
    csrf: LinkFormCsrf,
    clients: ClientAddresses,
  ) {
    super(PAGE, assets, csrf, clients);
  }

  protected open(tenant: string, token: string): Promise<LinkOutcome> {
    return this.signing.open(tenant, token);
  }

  protected emptyFields(): SignatureFields {
    return { signature: '', typedName: '', consent: false };
  }

  protected readFields(text: (name: string) => string): SignatureFields {
    return { signature: text('signature'), typedName: text('typedName'), consent: text('consent') === 'ja' };
  }

  protected submit(tenant: string, form: SigningForm, client: CustomerClient): Promise<SignOutcome> {
    return this.signing.sign(tenant, form, client);
  }

  protected render(context: PageContext, outcome: LinkOutcome | SignOutcome, form: SigningForm) {
    return outcomePage(context, outcome, form);
  }
}
