import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { listAuditEvents, tenantIdOf } from '@broker/administration';
import { type AuditEventPage, ListAuditEventsQuery } from '@broker/contracts';
import { ApiJsonAnswer, ApiQueryParameters } from '@broker/platform';
import { ADMIN_BASE } from '../answers.js';
import { AdminGuard } from '../auth/admin.guard.js';

/** The audit trail of a tenant: every write of the administration, and the customers' own events. */
@Controller(`${ADMIN_BASE}/tenants/:tenant/audit-events`)
@UseGuards(AdminGuard)
export class AuditController {
  constructor(private readonly db: DataSource) {}

  @ApiOperation({
    operationId: 'listAuditEvents',
    summary: 'Audit events, newest first, by actor, action, target and time',
  })
  @ApiJsonAnswer('AuditEventPage')
  @ApiQueryParameters(ListAuditEventsQuery)
  @Get()
  async list(@Param('tenant') tenant: string, @Query() query: ListAuditEventsQuery): Promise<AuditEventPage> {
    return listAuditEvents(this.db, await tenantIdOf(this.db.manager, tenant), query);
  }
}
