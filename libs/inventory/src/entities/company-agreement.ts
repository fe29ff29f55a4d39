import { Column, Entity, ForeignKey, Unique } from 'typeorm';
import { IdentifiedTenantRecord } from './base-records.js';
import { Broker } from './broker.js';
import { Company } from './company.js';

/** A broker's agreement with an insurer (Courtage- or Vermittlervereinbarung), with its agency number there. */
@Entity({ schema: 'broker', name: 'company_agreement' })
@ForeignKey(() => Broker, ['tenantId', 'brokerId'], ['tenantId', 'id'], {
  name: 'company_agreement_tenant_id_broker_id_fkey',
})
@ForeignKey(() => Company, ['tenantId', 'companyId'], ['tenantId', 'id'], {
  name: 'company_agreement_tenant_id_company_id_fkey',
})
@Unique('company_agreement_tenant_id_broker_id_company_id_key', ['tenantId', 'brokerId', 'companyId'])
export class CompanyAgreement extends IdentifiedTenantRecord {
  @Column({ type: 'bigint' })
  brokerId!: string;

  @Column({ type: 'bigint' })
  companyId!: string;

  @Column({ type: 'text', nullable: true })
  agencyNumber!: string | null;
}
