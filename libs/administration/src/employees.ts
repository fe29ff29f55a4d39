import type { DataSource, EntityManager } from 'typeorm';
import type { EmployeePage, EmployeeView } from '@broker/contracts';
import { existingBrokerId } from './broker-lookup.js';
import { inTransaction, recordAuditEvent, type WriteContext } from './audit-trail.js';
import { conflict, notFound } from './errors.js';
import { pageOf, type PageRequest } from './paging.js';
import { utc } from './sql.js';
import { tenantIdOf } from './tenants.js';

export interface NewEmployee {
  number: string;
  name: string;
  email: string | null;
}

/** Left out: unchanged; `email: null` removes the address. */
export interface EmployeeChanges {
  name?: string;
  email?: string | null;
  disabled?: boolean;
}

const EMPLOYEE_VIEW = `b.broker_number AS broker, e.employee_code AS number, e.name, e.email, e.blocked AS disabled,
  ${utc('e.created_at')} AS created_at, ${utc('e.updated_at')} AS updated_at`;
const EMPLOYEE_FROM =
  'broker.employee e JOIN broker.broker b ON b.tenant_id = e.tenant_id AND b.id = e.broker_id';

/** A broker's employees by number. */
export function listEmployeesOf(
  db: EntityManager,
  tenantId: string,
  brokerId: string,
  page: PageRequest,
): Promise<EmployeePage> {
  return pageOf<EmployeeView>(
    db,
    {
      select: EMPLOYEE_VIEW,
      from: `${EMPLOYEE_FROM} WHERE e.tenant_id = $1 AND e.broker_id = $2`,
      orderBy: 'e.employee_code',
      parameters: [tenantId, brokerId],
    },
    page,
  );
}

/** Employees of brokers ({ma} of area C); a disabled one is refused there. */
export class EmployeeAdministration {
  constructor(private readonly db: DataSource) {}

  async create(
    context: WriteContext,
    tenantCode: string,
    brokerNumber: string,
    employee: NewEmployee,
  ): Promise<EmployeeView> {
    return inTransaction(this.db, context, async (tx) => {
      const tenantId = await tenantIdOf(tx, tenantCode);
      const brokerId = await existingBrokerId(tx, tenantId, brokerNumber);
      const [row] = await tx.query<{ id: string }[]>(
        `INSERT INTO broker.employee (tenant_id, broker_id, employee_code, name, email) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (tenant_id, broker_id, employee_code) DO NOTHING RETURNING id::text`,
        [tenantId, brokerId, employee.number, employee.name, employee.email],
      );
      if (!row) throw conflict(`Broker ${brokerNumber} already has an employee ${employee.number}`);
      await recordAuditEvent(tx, context.actor, {
        tenantId,
        action: context.operation ?? 'createEmployee',
        target: `brokers/${brokerNumber}/employees/${employee.number}`,
        changes: { ...employee },
      });
      return this.view(tx, row.id);
    });
  }

  async update(
    context: WriteContext,
    tenantCode: string,
    brokerNumber: string,
    number: string,
    changes: EmployeeChanges,
  ): Promise<EmployeeView> {
    return inTransaction(this.db, context, async (tx) => {
      const tenantId = await tenantIdOf(tx, tenantCode);
      const brokerId = await existingBrokerId(tx, tenantId, brokerNumber);
      const [current] = await tx.query<
        { id: string; name: string; email: string | null; disabled: boolean }[]
      >(
        `SELECT id::text, name, email, blocked AS disabled FROM broker.employee
          WHERE tenant_id = $1 AND broker_id = $2 AND employee_code = $3 FOR UPDATE`,
        [tenantId, brokerId, number],
      );
      if (!current) throw notFound(`Broker ${brokerNumber} has no employee ${number}`);
      const changed = Object.fromEntries(
        (Object.entries(changes) as [keyof EmployeeChanges, unknown][]).filter(
          ([field, value]) => value !== undefined && value !== current[field],
        ),
      );
      if (Object.keys(changed).length > 0) {
        await tx.query(`UPDATE broker.employee SET name = $2, email = $3, blocked = $4 WHERE id = $1`, [
          current.id,
          changes.name ?? current.name,
          changes.email === undefined ? current.email : changes.email,
          changes.disabled ?? current.disabled,
        ]);
        await recordAuditEvent(tx, context.actor, {
          tenantId,
          action: context.operation ?? 'updateEmployee',
          target: `brokers/${brokerNumber}/employees/${number}`,
          changes: changed,
        });
      }
      return this.view(tx, current.id);
    });
  }

  async list(tenantCode: string, brokerNumber: string, page: PageRequest): Promise<EmployeePage> {
    const db = this.db.manager;
    const tenantId = await tenantIdOf(db, tenantCode);
    return listEmployeesOf(db, tenantId, await existingBrokerId(db, tenantId, brokerNumber), page);
  }

  async get(tenantCode: string, brokerNumber: string, number: string): Promise<EmployeeView> {
    const db = this.db.manager;
    const tenantId = await tenantIdOf(db, tenantCode);
    const [view] = await db.query<EmployeeView[]>(
      `SELECT ${EMPLOYEE_VIEW} FROM ${EMPLOYEE_FROM}
        WHERE e.tenant_id = $1 AND e.broker_id = $2 AND e.employee_code = $3`,
      [tenantId, await existingBrokerId(db, tenantId, brokerNumber), number],
    );
    if (!view) throw notFound(`Broker ${brokerNumber} has no employee ${number}`);
    return view;
  }

  private async view(db: EntityManager, employeeId: string): Promise<EmployeeView> {
    const [view] = await db.query<EmployeeView[]>(
      `SELECT ${EMPLOYEE_VIEW} FROM ${EMPLOYEE_FROM} WHERE e.id = $1`,
      [employeeId],
    );
    return view;
  }
}
