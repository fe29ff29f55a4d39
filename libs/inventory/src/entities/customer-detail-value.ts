import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { TenantRecord } from './base-records.js';
import { Customer } from './customer.js';
import { CustomerDetailDefinition } from './customer-detail-definition.js';

@Entity({ schema: 'broker', name: 'customer_detail_value' })
@ForeignKey(() => Customer, ['tenantId', 'customerId'], ['tenantId', 'id'], {
  name: 'customer_detail_value_tenant_id_customer_id_fkey',
  onDelete: 'CASCADE',
})
@ForeignKey(() => CustomerDetailDefinition, ['tenantId', 'definitionId'], ['tenantId', 'id'], {
  name: 'customer_detail_value_tenant_id_definition_id_fkey',
})
@Index('customer_detail_value_definition_idx', ['tenantId', 'definitionId'])
export class CustomerDetailValue extends TenantRecord {
  @PrimaryColumn({ type: 'bigint' })
  customerId!: string;

  @PrimaryColumn({ type: 'bigint' })
  definitionId!: string;

  @Column({ type: 'jsonb' })
  value!: string | number | boolean;
}
