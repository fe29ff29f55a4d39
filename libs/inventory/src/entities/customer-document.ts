import { bigintAsNumber } from '@broker/db';
import { Check, Column, Entity, ForeignKey, Index, Unique } from 'typeorm';
import { IdentifiedTenantRecord } from './base-records.js';
import { Customer } from './customer.js';

/** A file stored for a customer; the content lives in object storage under storage_key. */
@Entity({ schema: 'broker', name: 'document' })
@Unique('document_tenant_id_id_key', ['tenantId', 'id'])
@ForeignKey(() => Customer, ['tenantId', 'customerId'], ['tenantId', 'id'], {
  name: 'document_tenant_id_customer_id_fkey',
  onDelete: 'CASCADE',
})
@Check('document_size_bytes_check', 'size_bytes >= 0')
@Index('document_customer_idx', ['customerId'])
export class CustomerDocument extends IdentifiedTenantRecord {
  @Column({ type: 'bigint' })
  customerId!: string;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text' })
  fileName!: string;

  @Column({ type: 'text' })
  mimeType!: string;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  sizeBytes!: number;

  @Column({ type: 'char', length: 64 })
  sha256!: string;

  @Column({ type: 'text' })
  storageKey!: string;
}
