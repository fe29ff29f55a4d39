import { All, Body, Get, Param, Post, Query, Req, Res, UseGuards, UseInterceptors } from '@nestjs/common';
import { DomainError } from '@broker/errors';
import type { Request, Response } from 'express';
import { BodyMediaTypes, ClientAddresses } from '@broker/platform';
import { LinkFormCsrf } from './csrf.js';
import { FormBodyInterceptor } from './form-body.interceptor.js';
import { formFields, LinkTokenPipe, TenantCodePipe } from './link-parts.js';
import { CustomerPageAssets } from './page-assets.js';
import type { CustomerPage } from './page-paths.js';
import { sendAsset, sendPage } from './page-response.js';
import type { Page, PageContext } from './page-shell.js';
import { CustomerPageRateLimitGuard } from './rate-limit.js';

/** What every page's form posts besides its own fields. */
export interface LinkForm {
  token: string;
  csrf: string;
}

/** Who sent a form, for the audit record. */
export interface CustomerClient {
  address: string;
  userAgent: string | null;
}

/**
 * A customer page behind a link: GET shows the link's page, POST submits its form (urlencoded, CSRF-checked), both
 * rate-limited per client address (the subclass names its page with @RateLimitedPage); its stylesheet and script
 * are served under its path too. Answers are HTML pages only (the subclass's CustomerPageFilter).
 */
export abstract class LinkPageController<Fields extends object, Outcome extends { state: string }> {
  protected constructor(
    private readonly page: CustomerPage,
    private readonly assets: CustomerPageAssets,
    private readonly csrf: LinkFormCsrf,
    private readonly clients: ClientAddresses,
  ) {}

  /** The state of the link and what its page shows. */
  protected abstract open(tenant: string, token: string): Promise<Outcome>;
  /** The form's own fields as a fresh page shows them. */
  protected abstract emptyFields(): Fields;
  /** The form's own fields as posted (`text` gives a field's text, '' when absent). */
  protected abstract readFields(text: (name: string) => string): Fields;
  /** What the posted form does; the CSRF check has passed. */
  protected abstract submit(
    tenant: string,
    form: LinkForm & Fields,
    client: CustomerClient,
  ): Promise<Outcome>;
  protected abstract render(context: PageContext, outcome: Outcome, form: LinkForm & Fields): Page;

  @Get()
  @UseGuards(CustomerPageRateLimitGuard)
  async show(
    @Param('tenant', TenantCodePipe) tenant: string,
    @Query('token', LinkTokenPipe) token: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const outcome = await this.open(tenant, token);
    const csrf = outcome.state === 'open' ? this.csrf.issue(request, response, this.page, tenant, token) : '';
    this.send(response, tenant, outcome, { token, csrf, ...this.emptyFields() });
  }

  @Post()
  @BodyMediaTypes('application/x-www-form-urlencoded')
  @UseGuards(CustomerPageRateLimitGuard)
  @UseInterceptors(FormBodyInterceptor)
  async post(
    @Param('tenant', TenantCodePipe) tenant: string,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const text = formFields(body);
    const form = {
      token: LinkTokenPipe.transform(text('token')),
      csrf: text('csrf'),
      ...this.readFields(text),
    };
    this.csrf.verify(request, this.page, form.token, form.csrf);
    const outcome = await this.submit(tenant, form, {
      address: this.clients.of(request),
      userAgent: request.get('user-agent')?.slice(0, 512) ?? null,
    });
    this.send(response, tenant, outcome, form);
  }

  @Get('assets/:file')
  asset(@Param('file') file: string, @Res() response: Response): void {
    sendAsset(response, this.assets.file(file));
  }

  /** Any other method or path under the page: the page's own 404 (HTML), not the service's JSON one. */
  @All(['', '*rest'])
  unknown(): never {
    throw DomainError.notFound('No such page');
  }

  private send(response: Response, tenant: string, outcome: Outcome, form: LinkForm & Fields): void {
    const context = this.assets.context(tenant, this.page);
    sendPage(response, context, this.render(context, outcome, form));
  }
}
