import {
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Index,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { Customer } from './customer.js';
import { CustomerDocument } from './customer-document.js';

@Entity({ schema: 'broker', name: 'archive_entry' })
@Unique('archive_entry_tenant_id_id_key', ['tenantId', 'id'])
@ForeignKey(() => Customer, ['tenantId', 'customerId'], ['tenantId', 'id'], {
  name: 'archive_entry_tenant_id_customer_id_fkey',
  onDelete: 'CASCADE',
})
@ForeignKey(() => CustomerDocument, ['tenantId', 'documentId'], ['tenantId', 'id'], {
  name: 'archive_entry_tenant_id_document_id_fkey',
})
@Index('archive_entry_customer_idx', ['customerId'])
@Index('archive_entry_document_idx', ['tenantId', 'documentId'])
export class ArchiveEntry {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'bigint' })
  tenantId!: string;

  @Column({ type: 'bigint' })
  customerId!: string;

  @Column({ type: 'text' })
  entryType!: string;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  entryDate!: Date;

  @Column({ type: 'bigint', nullable: true })
  documentId!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
