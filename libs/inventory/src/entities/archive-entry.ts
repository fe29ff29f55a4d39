import { Column, Entity, ForeignKey, Index, Unique } from 'typeorm';
import { IdentifiedTenantRecord } from './base-records.js';
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
export class ArchiveEntry extends IdentifiedTenantRecord {
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
}
