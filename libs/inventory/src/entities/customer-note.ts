import {
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { Customer } from './customer.js';

@Entity({ schema: 'broker', name: 'customer_note' })
@ForeignKey(() => Customer, ['tenantId', 'customerId'], ['tenantId', 'id'], {
  name: 'customer_note_tenant_id_customer_id_fkey',
  onDelete: 'CASCADE',
})
@Index('customer_note_customer_idx', ['customerId'])
export class CustomerNote {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'bigint' })
  tenantId!: string;

  @Column({ type: 'bigint' })
  customerId!: string;

  @Column({ type: 'text' })
  noteType!: string;

  @Column({ type: 'text' })
  text!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
