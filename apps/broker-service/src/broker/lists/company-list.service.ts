import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SvcPrincipal } from '@broker/auth';
import { brokerNotFound, visibleBrokerId } from '../../visible-broker.js';
import { type CompanyItem, CompanyListRepository } from './company-list.repository.js';

/** A broker's list of companies, split so a revalidation reads only its date. */
export interface CompanyList {
  lastModified: Date;
  items(): Promise<CompanyItem[]>;
}

@Injectable()
export class CompanyListService {
  constructor(
    private readonly db: DataSource,
    private readonly companies: CompanyListRepository,
  ) {}

  /** The list of broker `brokerNumber`, the caller or one below it (else 404). */
  async of(caller: SvcPrincipal, brokerNumber: string): Promise<CompanyList> {
    const db = this.db.manager;
    const brokerId = await visibleBrokerId(db, caller, brokerNumber);
    if (!brokerId) throw brokerNotFound(brokerNumber);
    return {
      lastModified: await this.companies.lastModified(db, caller.tenantId, brokerId),
      items: () => this.companies.list(db, caller.tenantId, brokerId),
    };
  }
}
