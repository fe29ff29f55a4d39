import {
  Check,
  Column,
  Entity,
  ForeignKey,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import { TenantRecord } from './base-records.js';
import { Customer } from './customer.js';

/** Address 0 of a customer is the main residence (address_type 'hauptwohnsitz'), and only it. */
@Entity({ schema: 'broker', name: 'address' })
@ForeignKey(() => Customer, ['tenantId', 'customerId'], ['tenantId', 'id'], {
  name: 'address_tenant_id_customer_id_fkey',
  onDelete: 'CASCADE',
})
@Check('address_address_no_check', 'address_no >= 0')
@Check('address_main_residence_is_zero', `(address_no = 0) = (address_type = 'hauptwohnsitz')`)
@Index('address_postal_code_idx', ['tenantId', 'postalCode'])
export class Address extends TenantRecord {
  @PrimaryColumn({ type: 'bigint' })
  customerId!: string;

  // The database constraint is the composite (tenant_id, customer_id) key declared on the class.
  @ManyToOne(() => Customer, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'customer_id' })
  customer?: Relation<Customer>;

  @PrimaryColumn({ type: 'integer' })
  addressNo!: number;

  @Column({ type: 'text' })
  addressType!: string;

  @Column({ type: 'text', nullable: true })
  addition!: string | null;

  @Column({ type: 'text', nullable: true })
  street!: string | null;

  @Column({ type: 'text', nullable: true })
  postalCode!: string | null;

  @Column({ type: 'text', nullable: true })
  city!: string | null;

  @Column({ type: 'char', length: 2, default: 'DE' })
  country!: string;
}
