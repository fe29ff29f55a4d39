import { Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { OutboxMessageOperations, type WriteContext } from '@broker/administration';
import { ListOutboxMessagesQuery, type OutboxMessagePage, type OutboxMessageView } from '@broker/contracts';
import { ApiJsonAnswer, ApiQueryParameters } from '@broker/platform';
import { ADMIN_BASE } from '../answers.js';
import { AdminGuard, Writer } from '../auth/admin.guard.js';
import { ApiConflict } from '../documented-errors.js';

/** The messages to the tenant's customers (e-mail, SMS) in the outbox: what waits, what failed, resending. */
@Controller(`${ADMIN_BASE}/tenants/:tenant/outbox-messages`)
@UseGuards(AdminGuard)
export class OutboxMessagesController {
  constructor(private readonly messages: OutboxMessageOperations) {}

  @ApiOperation({
    operationId: 'listOutboxMessages',
    summary: 'The messages to the tenant’s customers, newest first, without their text',
  })
  @ApiJsonAnswer('OutboxMessagePage')
  @ApiQueryParameters(ListOutboxMessagesQuery)
  @Get()
  list(@Param('tenant') tenant: string, @Query() query: ListOutboxMessagesQuery): Promise<OutboxMessagePage> {
    const { status, channel, offset, limit } = query;
    return this.messages.list(tenant, { status, channel }, { offset, limit });
  }

  @ApiOperation({
    operationId: 'resendOutboxMessage',
    summary:
      'Sends a message that failed or waits again, with fresh attempts (the broker service’s next sweep)',
  })
  @ApiJsonAnswer('OutboxMessageView')
  @ApiConflict('The message was sent, or its link expired with it')
  @Post(':messageId/resend')
  @HttpCode(200)
  resend(
    @Writer() writer: WriteContext,
    @Param('tenant') tenant: string,
    @Param('messageId') messageId: string,
  ): Promise<OutboxMessageView> {
    return this.messages.resend(writer, tenant, messageId);
  }
}
