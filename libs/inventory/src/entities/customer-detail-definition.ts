import { Check, Column, Entity, ForeignKey, Unique } from 'typeorm';
import { IdentifiedTenantRecord } from './base-records.js';
import { Broker } from './broker.js';
import { sqlStringList } from './sql-literals.js';

export const CUSTOMER_DETAIL_TYPES = ['zahl', 'datum', 'auswahl', 'text', 'betrag_2', 'boolean'] as const;
export type CustomerDetailType = (typeof CUSTOMER_DETAIL_TYPES)[number];

/** A custom customer field a broker defines; only 'auswahl' (choice) fields have options. */
@Entity({ schema: 'broker', name: 'customer_detail_definition' })
@Unique('customer_detail_definition_tenant_id_id_key', ['tenantId', 'id'])
@Unique('customer_detail_definition_tenant_id_broker_id_detail_key_key', [
  'tenantId',
  'brokerId',
  'detailKey',
])
@ForeignKey(() => Broker, ['tenantId', 'brokerId'], ['tenantId', 'id'], {
  name: 'customer_detail_definition_tenant_id_broker_id_fkey',
})
@Check('customer_detail_definition_detail_key_check', `detail_key ~ '^[A-Za-z0-9_-]{1,64}$'`)
@Check(
  'customer_detail_definition_value_type_check',
  `value_type IN (${sqlStringList(CUSTOMER_DETAIL_TYPES)})`,
)
@Check('customer_detail_definition_check', `(value_type = 'auswahl') = (options IS NOT NULL)`)
export class CustomerDetailDefinition extends IdentifiedTenantRecord {
  @Column({ type: 'bigint' })
  brokerId!: string;

  @Column({ type: 'text' })
  detailKey!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  valueType!: CustomerDetailType;

  @Column({ type: 'jsonb', nullable: true })
  options!: Record<string, string> | null;
}
