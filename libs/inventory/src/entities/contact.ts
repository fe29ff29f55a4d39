import {
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
  type Relation,
} from 'typeorm';
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
export class Contact {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'bigint' })
  tenantId!: string;

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

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
