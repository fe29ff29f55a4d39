import { Column, CreateDateColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** Every inventory row has these: creation and last change (the source of Last-Modified). */
export abstract class TimestampedRecord {
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}

/** A row owned by a tenant, identified by its own key (composite keys declare theirs). */
export abstract class TenantRecord extends TimestampedRecord {
  @Column({ type: 'bigint' })
  tenantId!: string;
}

/** A tenant-owned row with a generated bigint identity; pg returns bigint as a string. */
export abstract class IdentifiedTenantRecord extends TenantRecord {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;
}
