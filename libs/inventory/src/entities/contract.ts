import { bigintAsNumber } from '@broker/db';
import {
  Check,
  Column,
  Entity,
  ForeignKey,
  Index,
  JoinColumn,
  ManyToOne,
  Unique,
  type Relation,
} from 'typeorm';
import { IdentifiedTenantRecord } from './base-records.js';
import { Broker } from './broker.js';
import { Company } from './company.js';
import { Customer } from './customer.js';

// The relations carry no constraints of their own: the database constraints are the composite
// (tenant_id, ...) keys declared on the class.
@Entity({ schema: 'broker', name: 'contract' })
@ForeignKey(() => Broker, ['tenantId', 'brokerId'], ['tenantId', 'id'], {
  name: 'contract_tenant_id_broker_id_fkey',
})
@ForeignKey(() => Customer, ['tenantId', 'customerId'], ['tenantId', 'id'], {
  name: 'contract_tenant_id_customer_id_fkey',
  onDelete: 'CASCADE',
})
@ForeignKey(() => Company, ['tenantId', 'companyId'], ['tenantId', 'id'], {
  name: 'contract_tenant_id_company_id_fkey',
})
@Unique('contract_tenant_id_company_id_policy_number_key', ['tenantId', 'companyId', 'policyNumber'])
@Check('contract_policy_number_check', `policy_number <> ''`)
@Index('contract_customer_idx', ['customerId'])
@Index('contract_broker_idx', ['tenantId', 'brokerId', 'companyId'])
export class Contract extends IdentifiedTenantRecord {
  @Column({ type: 'bigint' })
  brokerId!: string;

  @ManyToOne(() => Broker, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'broker_id' })
  broker?: Relation<Broker>;

  @Column({ type: 'bigint' })
  customerId!: string;

  @ManyToOne(() => Customer, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'customer_id' })
  customer?: Relation<Customer>;

  @Column({ type: 'bigint' })
  companyId!: string;

  @ManyToOne(() => Company, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'company_id' })
  company?: Relation<Company>;

  @Column({ type: 'text' })
  lineOfBusiness!: string;

  @Column({ type: 'text' })
  policyNumber!: string;

  @Column({ type: 'text' })
  status!: string;

  @Column({ type: 'date', nullable: true })
  startDate!: string | null;

  @Column({ type: 'date', nullable: true })
  endDate!: string | null;

  @Column({ type: 'date', nullable: true })
  mainDueDate!: string | null;

  @Column({ type: 'text', nullable: true })
  paymentMode!: string | null;

  @Column({ type: 'bigint', nullable: true, transformer: bigintAsNumber })
  netPremiumCents!: number | null;

  @Column({ type: 'bigint', nullable: true, transformer: bigintAsNumber })
  grossPremiumCents!: number | null;

  @Column({ type: 'char', length: 3, default: 'EUR' })
  currency!: string;
}
