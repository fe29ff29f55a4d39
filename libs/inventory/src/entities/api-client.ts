import { Index, Check, Column, Entity, ForeignKey, Unique } from 'typeorm';
import { IdentifiedTenantRecord } from './base-records.js';
import { Broker } from './broker.js';

@Entity({ schema: 'broker', name: 'api_client' })
@ForeignKey(() => Broker, ['tenantId', 'brokerId'], ['tenantId', 'id'], {
  name: 'api_client_tenant_id_broker_id_fkey',
})
@Unique('api_client_tenant_id_api_id_key', ['tenantId', 'apiId'])
@Index('api_client_broker_idx', ['tenantId', 'brokerId'])
@Check('api_client_api_id_check', `api_id <> ''`)
@Check(
  'api_client_previous_key_check',
  '(previous_key_ciphertext IS NULL) = (previous_key_valid_until IS NULL)',
)
export class ApiClient extends IdentifiedTenantRecord {
  @Column({ type: 'bigint' })
  brokerId!: string;

  @Column({ type: 'text' })
  apiId!: string;

  @Column({ type: 'text' })
  apiKeyCiphertext!: string;

  /** When the current key was made (at creation or rotation). */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  keyCreatedAt!: Date;

  /** The key a rotation replaced, accepted beside the current one until `previousKeyValidUntil`. */
  @Column({ type: 'text', nullable: true })
  previousKeyCiphertext!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  previousKeyValidUntil!: Date | null;

  @Column({ type: 'boolean', default: false })
  blocked!: boolean;
}
