import { Body, Controller, Header, HttpCode, Post, UseGuards } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiSecurity,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { LoginBearerGuard } from '@broker/auth';
import {
  ApiErrorView,
  PrivateLiabilityCalculationRequest,
  PrivateLiabilityCalculationResponse,
} from '@broker/contracts';
import { wwwAuthenticateHeader } from '@broker/platform';
import { AUTHORISATION_SCHEME } from '../openapi.js';
import { PrivateLiabilityCalculator } from './private-liability-calculator.js';

@ApiTags('calculation')
@ApiBearerAuth('bearer')
@ApiSecurity(AUTHORISATION_SCHEME)
@ApiUnauthorizedResponse({
  type: ApiErrorView,
  description: 'Missing, invalid or expired token',
  headers: { 'WWW-Authenticate': wwwAuthenticateHeader(true) },
})
@Controller('api/v1/calculate')
@UseGuards(LoginBearerGuard)
export class PrivateLiabilityController {
  constructor(private readonly calculator: PrivateLiabilityCalculator) {}

  @Post('private-liability')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'calculatePrivateLiability',
    summary: 'Price private liability insurance across providers',
    description:
      'Every product of the tariff catalog appears once: in calculation_result.success when it can be ' +
      'calculated for the request (cheapest yearly payment first), otherwise in calculation_result.errors ' +
      'with the reasons. Ages are completed years on the calculation day (Europe/Berlin).',
  })
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiBody({ type: PrivateLiabilityCalculationRequest })
  @ApiOkResponse({ type: PrivateLiabilityCalculationResponse })
  @ApiBadRequestResponse({
    type: ApiErrorView,
    description: 'The request breaks a rule; every failing field is named',
  })
  // The body is validated by the calculator (not the global pipe), which skips a body it already answered today.
  calculate(@Body() body: unknown): Promise<Buffer> {
    return this.calculator.answer(body);
  }
}
