import { Body, Controller, Param, Patch, UseGuards } from '@nestjs/common';
import { ApiJsonAnswer } from '@broker/platform';
import { ApiOperation } from '@nestjs/swagger';
import { HeaderGroupGuard, type SvcPrincipal } from '@broker/auth';
import { UntervermittlerdatensatzInput } from '@broker/contracts';
import { BROKER_BASE, Caller } from '../broker-base.js';
import { SubBrokerService } from './sub-broker.service.js';

@Controller(`${BROKER_BASE}/vermittler`)
@UseGuards(HeaderGroupGuard)
export class SubBrokersController {
  constructor(private readonly subBrokers: SubBrokerService) {}

  /** updateUntervermittler: {vmt} is a broker below the caller; answers the sub-broker as stored. */
  @ApiOperation({
    operationId: 'updateUntervermittler',
    summary: 'Updates a sub-broker; Uebervermittler moves it in the hierarchy',
  })
  @ApiJsonAnswer('UntervermittlerView')
  @Patch(':vmt')
  update(
    @Caller() caller: SvcPrincipal,
    @Param('vmt') brokerNumber: string,
    @Body() input: UntervermittlerdatensatzInput,
  ) {
    return this.subBrokers.update(caller, brokerNumber, input);
  }
}
