import { Body, Controller, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { LoginBearerGuard } from '@broker/auth';
import {
  ApiErrorView,
  PrivateLiabilityCalculationRequest,
  PrivateLiabilityCalculationResponse,
} from '@broker/contracts';
import { calculatePrivateLiability, type PrivateLiabilityCatalog } from '@broker/tariff-engine';
import { calculationParameters, engineRequest } from './calculation-parameters.js';
import { calculationResponse } from './calculation-response.js';
import { PRIVATE_LIABILITY_CATALOG } from './private-liability-catalog.js';

@ApiTags('calculation')
@ApiBearerAuth('bearer')
@ApiUnauthorizedResponse({ type: ApiErrorView, description: 'Missing, invalid or expired token' })
@Controller('api/v1/calculate')
@UseGuards(LoginBearerGuard)
export class PrivateLiabilityController {
  constructor(@Inject(PRIVATE_LIABILITY_CATALOG) private readonly catalog: PrivateLiabilityCatalog) {}

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
  @ApiOkResponse({ type: PrivateLiabilityCalculationResponse })
  @ApiBadRequestResponse({
    type: ApiErrorView,
    description: 'The request breaks a rule; every failing field is named',
  })
  calculate(@Body() request: PrivateLiabilityCalculationRequest): PrivateLiabilityCalculationResponse {
    const parameters = calculationParameters(request);
    const result = calculatePrivateLiability(this.catalog, engineRequest(parameters), new Date());
    return calculationResponse(parameters, result);
  }
}
