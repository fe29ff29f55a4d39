import { Column, Entity, ForeignKey, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { IdentifiedTenantRecord } from './base-records.js';
import { Customer } from './customer.js';

@Entity({ schema: 'broker', name: 'contact' })
@ForeignKey(() => Customer, ['tenantId', 'customerId'], ['tenantId', 'id'], {
  name: 'contact_tenant_id_customer_id_fkey',
  onDelete: 'CASCADE',
})
@Index('contact_customer_idx', ['customerId'])
@Index('contact_one_standard_per_type', ['customerId', 'contactType'], { unique: true, where: 'is_standard' })
// (tenant_id, lower(value)): TypeORM cannot express an expression index, so it only learns the name and
// leaves the index alone.
@Index('contact_value_idx', { synchronize: false })
export class Contact extends IdentifiedTenantRecord {
  @Column({ type: 'bigint' })
  customerId!: string;

  // The database constraint is the composite (tenant_id, customer_id) key declared on the class.
  @ManyToOne(() => Customer, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'customer_id' })
  customer?: Relation<Customer>;

  @Column({ type: 'text' })
  context!: string;

  @Column({ type: 'text' })
  contactType!: string;

  @Column({ type: 'text' })
  value!: string;

  @Column({ type: 'boolean', default: false })
  isStandard!: boolean;
}
