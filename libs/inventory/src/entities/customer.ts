import {
  Check,
  Column,
  Entity,
  ForeignKey,
  Index,
  JoinColumn,
  ManyToOne,
  Unique,
  type Relation,
} from 'typeorm';
import { IdentifiedTenantRecord } from './base-records.js';
import { ArchiveEntry } from './archive-entry.js';
import { Broker } from './broker.js';
import { sqlStringList } from './sql-literals.js';

export const PERSON_TYPES = ['natuerlich', 'juristisch'] as const;
export type PersonType = (typeof PERSON_TYPES)[number];

@Entity({ schema: 'broker', name: 'customer' })
@Unique('customer_tenant_id_id_key', ['tenantId', 'id'])
@ForeignKey(() => Broker, ['tenantId', 'brokerId'], ['tenantId', 'id'], {
  name: 'customer_tenant_id_broker_id_fkey',
})
@ForeignKey(() => ArchiveEntry, ['tenantId', 'mandateArchiveEntryId'], ['tenantId', 'id'], {
  name: 'customer_mandate_fkey',
  deferrable: 'INITIALLY DEFERRED',
})
@Check('customer_person_type_check', `person_type IN (${sqlStringList(PERSON_TYPES)})`)
// UNIQUE (tenant_id, lower(user_name)) WHERE user_name IS NOT NULL: TypeORM cannot express an expression
// index, so it only learns the name and leaves the index alone.
@Index('customer_user_name_key', { synchronize: false })
@Index('customer_external_key', ['tenantId', 'brokerId', 'externalKey'], {
  unique: true,
  where: 'external_key IS NOT NULL',
})
@Index('customer_broker_idx', ['tenantId', 'brokerId'])
@Index('customer_mandate_idx', ['tenantId', 'mandateArchiveEntryId'], {
  where: 'mandate_archive_entry_id IS NOT NULL',
})
export class Customer extends IdentifiedTenantRecord {
  @Column({ type: 'bigint' })
  brokerId!: string;

  // The database constraint is the composite (tenant_id, broker_id) key declared on the class.
  @ManyToOne(() => Broker, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'broker_id' })
  broker?: Relation<Broker>;

  @Column({ type: 'text', nullable: true })
  userName!: string | null;

  @Column({ type: 'text', nullable: true })
  salutation!: string | null;

  @Column({ type: 'boolean', default: false })
  perDu!: boolean;

  @Column({ type: 'boolean', default: false })
  deceased!: boolean;

  @Column({ type: 'date', nullable: true })
  relationshipEndedOn!: string | null;

  @Column({ type: 'text' })
  personType!: PersonType;

  @Column({ type: 'text', nullable: true })
  title!: string | null;

  @Column({ type: 'text', nullable: true })
  firstName!: string | null;

  @Column({ type: 'text', nullable: true })
  lastName!: string | null;

  @Column({ type: 'date', nullable: true })
  birthDate!: string | null;

  @Column({ type: 'text', nullable: true })
  occupation!: string | null;

  @Column({ type: 'text', nullable: true })
  specialty!: string | null;

  @Column({ type: 'text', nullable: true })
  companyName!: string | null;

  @Column({ type: 'text', nullable: true })
  contactPerson!: string | null;

  @Column({ type: 'date', nullable: true })
  foundingDate!: string | null;

  @Column({ type: 'text', nullable: true })
  industry!: string | null;

  @Column({ type: 'boolean', default: false })
  notifyUserName!: boolean;

  @Column({ type: 'boolean', default: false })
  notifyPasswordLink!: boolean;

  @Column({ type: 'boolean', default: false })
  suppressInitialInfo!: boolean;

  @Column({ type: 'bigint', nullable: true })
  mandateArchiveEntryId!: string | null;

  @Column({ type: 'text', nullable: true })
  externalKey!: string | null;
}
