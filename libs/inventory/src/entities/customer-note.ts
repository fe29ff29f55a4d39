import { Column, Entity, ForeignKey, Index } from 'typeorm';
import { IdentifiedTenantRecord } from './base-records.js';
import { Customer } from './customer.js';

@Entity({ schema: 'broker', name: 'customer_note' })
@ForeignKey(() => Customer, ['tenantId', 'customerId'], ['tenantId', 'id'], {
  name: 'customer_note_tenant_id_customer_id_fkey',
  onDelete: 'CASCADE',
})
@Index('customer_note_customer_idx', ['customerId'])
export class CustomerNote extends IdentifiedTenantRecord {
  @Column({ type: 'bigint' })
  customerId!: string;

  @Column({ type: 'text' })
  noteType!: string;

  @Column({ type: 'text' })
  text!: string;
}
