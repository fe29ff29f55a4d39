import { Check, Column, Entity, ForeignKey, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { TimestampedRecord } from './base-records.js';
import { Tenant } from './tenant.js';

/** An insurance company (Versicherungsunternehmen), identified per tenant by its VU number. */
@Entity({ schema: 'broker', name: 'company' })
@Unique('company_tenant_id_id_key', ['tenantId', 'id'])
@Unique('company_tenant_id_vu_number_key', ['tenantId', 'vuNumber'])
@Check('company_vu_number_check', `vu_number <> ''`)
export class Company extends TimestampedRecord {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'bigint' })
  @ForeignKey(() => Tenant, { name: 'company_tenant_id_fkey' })
  tenantId!: string;

  @Column({ type: 'text' })
  vuNumber!: string;

  @Column({ type: 'text' })
  name!: string;
}
