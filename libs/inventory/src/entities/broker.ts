import {
  Check,
  Column,
  Entity,
  ForeignKey,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  Unique,
  type Relation,
} from 'typeorm';
import { TimestampedRecord } from './base-records.js';
import { Tenant } from './tenant.js';

@Entity({ schema: 'broker', name: 'broker' })
@Unique('broker_tenant_id_id_key', ['tenantId', 'id'])
@Unique('broker_tenant_id_broker_number_key', ['tenantId', 'brokerNumber'])
@ForeignKey(() => Broker, ['tenantId', 'parentId'], ['tenantId', 'id'], {
  name: 'broker_tenant_id_parent_id_fkey',
})
@Check('broker_broker_number_check', `broker_number <> ''`)
@Check('broker_check', 'parent_id <> id')
@Index('broker_parent_idx', ['tenantId', 'parentId'])
export class Broker extends TimestampedRecord {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'bigint' })
  @ForeignKey(() => Tenant, { name: 'broker_tenant_id_fkey' })
  tenantId!: string;

  @Column({ type: 'text' })
  brokerNumber!: string;

  @Column({ type: 'bigint', nullable: true })
  parentId!: string | null;

  // The database constraint is the composite (tenant_id, parent_id) key declared on the class.
  @ManyToOne(() => Broker, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'parent_id' })
  parent?: Relation<Broker> | null;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', nullable: true })
  nameSuffix!: string | null;

  @Column({ type: 'text', nullable: true })
  street!: string | null;

  @Column({ type: 'text', nullable: true })
  postalCode!: string | null;

  @Column({ type: 'text', nullable: true })
  city!: string | null;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ type: 'text', nullable: true })
  phone!: string | null;

  @Column({ type: 'text', nullable: true })
  mobile!: string | null;

  @Column({ type: 'text', nullable: true })
  fax!: string | null;

  @Column({ type: 'text', nullable: true })
  website!: string | null;

  @Column({ type: 'text', nullable: true })
  imprint!: string | null;

  @Column({ type: 'boolean', default: false })
  blocked!: boolean;
}
