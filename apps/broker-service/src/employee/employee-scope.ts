import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import {
  type ClientEmployee,
  EMPLOYEE_PARAM,
  requestZone,
  type SvcPrincipal,
  svcPrincipalOf,
} from '@broker/auth';
import { type PreparedStatement, runPrepared } from '@broker/db';
import { DomainError, ErrorCode } from '@broker/errors';
import { callerBase } from '../interface-version.js';

/** The interface version this service implements; other versions are unknown routes. */
export const EMPLOYEE_BASE = 'service/:tenant/employee/v1/rest';

/** Who acts: an employee of the API client's broker, seeing that broker and every broker below it. */
export interface EmployeeScope {
  tenantId: string;
  /** The API client's broker: the root of what the employee may see. */
  brokerId: string;
  brokerNumber: string;
  employeeId: string;
  /** The zone the caller's date inputs without an offset are read in. */
  zone: string | undefined;
  /** Absolute path of `/{ma}` in this service, the base of every link in a response. */
  basePath: string;
}

type RequestWithScope = Request & { employeeScope?: EmployeeScope };

/** Read fresh for every request (blocking takes effect at once), unless read with the API client. */
const FIND_EMPLOYEE: PreparedStatement = {
  name: 'svc-employee-find',
  text: `SELECT id::text, blocked FROM broker.employee
          WHERE tenant_id = $1 AND broker_id = $2 AND employee_code = $3`,
};

/**
 * Resolves `{ma}`: an employee of the API client's broker, else 404. Runs after HeaderGroupGuard, which read the
 * employee with the API client; a part of a multi-call (whose caller is the batch's) reads it here.
 */
@Injectable()
export class EmployeeScopeGuard implements CanActivate {
  constructor(private readonly db: DataSource) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithScope>();
    const principal = svcPrincipalOf(request);
    const code = String(request.params[EMPLOYEE_PARAM] ?? '');
    const employee =
      principal.employee?.code === code ? principal.employee : await this.findEmployee(principal, code);
    if (employee.id === null) throw DomainError.notFound(`Employee ${code} does not exist`);
    if (employee.blocked) throw new DomainError(ErrorCode.Forbidden, `Employee ${code} is blocked`);
    request.employeeScope = {
      tenantId: principal.tenantId,
      brokerId: principal.brokerId,
      brokerNumber: principal.brokerNumber,
      employeeId: employee.id,
      zone: requestZone(request),
      basePath: `${callerBase(request.originalUrl) ?? `/service/${principal.tenantCode}/employee/v1/rest`}/${encodeURIComponent(code)}`,
    };
    return true;
  }

  private async findEmployee(principal: SvcPrincipal, code: string): Promise<ClientEmployee> {
    const [employee] = await runPrepared<{ id: string; blocked: boolean }>(this.db, FIND_EMPLOYEE, [
      principal.tenantId,
      principal.brokerId,
      code,
    ]);
    return { code, id: employee?.id ?? null, blocked: employee?.blocked ?? false };
  }
}

/** The scope EmployeeScopeGuard resolved, as a controller parameter. */
export const Scope = createParamDecorator((_data: unknown, context: ExecutionContext): EmployeeScope => {
  const scope = context.switchToHttp().getRequest<RequestWithScope>().employeeScope;
  if (!scope) throw new Error('@Scope() on a route without EmployeeScopeGuard');
  return scope;
});
