import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SvcPrincipal } from '@broker/auth';
import { brokerNotFound } from '../../visible-broker.js';
import { type CompanyList, CompanyListRepository } from './company-list.repository.js';

@Injectable()
export class CompanyListService {
  constructor(
    private readonly db: DataSource,
    private readonly companies: CompanyListRepository,
  ) {}

  /** The list of broker `brokerNumber`, the caller or one below it (else 404). */
  async of(caller: SvcPrincipal, brokerNumber: string): Promise<CompanyList> {
    const list = await this.companies.find(this.db, caller, brokerNumber);
    if (!list) throw brokerNotFound(brokerNumber);
    return list;
  }
}
