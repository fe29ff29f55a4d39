import {
  Body,
  Controller,
  Get,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseFilters,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { BodyMediaTypes, ClientAddresses } from '@broker/platform';
import { SigningCsrf } from './csrf.js';
import { FormBodyInterceptor } from './form-body.interceptor.js';
import { sendAsset, sendPage, SigningPageFilter } from './page-response.js';
import { outcomePage } from './pages.js';
import { SigningRateLimitGuard } from './rate-limit.js';
import type { SigningForm } from './signature-form.js';
import { SigningAssets } from './signing-assets.js';
import { LinkTokenPipe, SigningFormPipe, TenantCodePipe } from './signing-input.js';
import { SIGNING_ROUTE } from './signing-path.js';
import { SigningService } from './signing.service.js';

/**
 * The page behind the link of sendUnterschrifftenlink: GET shows the mandate and the form, POST signs, both
 * rate-limited per client address; the stylesheet and script come from here too. Answers are HTML pages only.
 */
@Controller(SIGNING_ROUTE)
@UseFilters(SigningPageFilter)
export class SigningPageController {
  constructor(
    private readonly signing: SigningService,
    private readonly assets: SigningAssets,
    private readonly csrf: SigningCsrf,
    private readonly clients: ClientAddresses,
  ) {}

  @Get()
  @UseGuards(SigningRateLimitGuard)
  async show(
    @Param('tenant', TenantCodePipe) tenant: string,
    @Query('token', LinkTokenPipe) token: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const outcome = await this.signing.open(tenant, token);
    const csrf = outcome.state === 'open' ? this.csrf.issue(request, response, tenant, token) : '';
    const context = this.assets.context(tenant);
    const form = { token, csrf, signature: '', typedName: '', consent: false };
    sendPage(response, context, outcomePage(context, outcome, form));
  }

  @Post()
  @BodyMediaTypes('application/x-www-form-urlencoded')
  @UseGuards(SigningRateLimitGuard)
  @UseInterceptors(FormBodyInterceptor)
  async sign(
    @Param('tenant', TenantCodePipe) tenant: string,
    @Body(SigningFormPipe) form: SigningForm,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    this.csrf.verify(request, form.token, form.csrf);
    const outcome = await this.signing.sign(tenant, form, {
      address: this.clients.of(request),
      userAgent: request.get('user-agent')?.slice(0, 512) ?? null,
    });
    const context = this.assets.context(tenant);
    sendPage(response, context, outcomePage(context, outcome, form));
  }

  @Get('assets/:file')
  asset(@Param('file') file: string, @Res() response: Response): void {
    sendAsset(response, this.assets.file(file));
  }
}
