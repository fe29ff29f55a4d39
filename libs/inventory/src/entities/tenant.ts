import { Check, Column, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { TimestampedRecord } from './base-records.js';

@Entity({ schema: 'broker', name: 'tenant' })
@Unique('tenant_code_key', ['code'])
@Check('tenant_code_check', `code ~ '^[a-z0-9][a-z0-9_-]{0,31}$'`)
export class Tenant extends TimestampedRecord {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column({ type: 'text' })
  code!: string;

  @Column({ type: 'text' })
  name!: string;
}
