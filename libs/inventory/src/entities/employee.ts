import { Check, Column, Entity, ForeignKey, Unique } from 'typeorm';
import { IdentifiedTenantRecord } from './base-records.js';
import { Broker } from './broker.js';

@Entity({ schema: 'broker', name: 'employee' })
@ForeignKey(() => Broker, ['tenantId', 'brokerId'], ['tenantId', 'id'], {
  name: 'employee_tenant_id_broker_id_fkey',
})
@Unique('employee_tenant_id_broker_id_employee_code_key', ['tenantId', 'brokerId', 'employeeCode'])
@Check('employee_employee_code_check', `employee_code ~ '^[A-Za-z0-9_-]{1,32}$'`)
@Check('employee_name_check', `btrim(name) <> ''`)
export class Employee extends IdentifiedTenantRecord {
  @Column({ type: 'bigint' })
  brokerId!: string;

  @Column({ type: 'text' })
  employeeCode!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  /** A disabled employee ("disabled" in the administration API) is refused by area C. */
  @Column({ type: 'boolean', default: false })
  blocked!: boolean;
}
