import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ArchiveintragView, VertragView } from '@broker/contracts';
import { formatDateTime } from '@broker/datetime';
import { DomainError } from '@broker/errors';
import type { EmployeeScope } from '../employee-scope.js';
import { customerPath, assertVisibleCustomer } from '../visible-customer.js';
import {
  type ArchiveEntryRecord,
  type ContractRecord,
  type DocumentFile,
  RecordsRepository,
} from './records.repository.js';

/** Cents as a decimal string with two places ("5462" → "54.62"): money never goes through a float. */
function amount(cents: string | null): string | null {
  if (cents === null) return null;
  const negative = cents.startsWith('-');
  const digits = (negative ? cents.slice(1) : cents).padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * getKundenVertraege, getKundenDokumente, getKundenArchiveintraege (and one archive entry, the mandate link), and
 * the download of an archive entry's document.
 */
@Injectable()
export class RecordsService {
  constructor(
    private readonly db: DataSource,
    private readonly records: RecordsRepository,
  ) {}

  async contracts(scope: EmployeeScope, customerId: string) {
    await assertVisibleCustomer(this.db.manager, scope, customerId);
    return (await this.records.contracts(this.db.manager, customerId)).map(contractView);
  }

  async archiveEntries(scope: EmployeeScope, customerId: string, withDocumentOnly: boolean) {
    await assertVisibleCustomer(this.db.manager, scope, customerId);
    const entries = await this.records.archiveEntries(this.db.manager, customerId, withDocumentOnly);
    return entries.map((entry) => archiveEntryView(scope, customerId, entry));
  }

  async archiveEntry(scope: EmployeeScope, customerId: string, entryId: string) {
    await assertVisibleCustomer(this.db.manager, scope, customerId);
    const entry = await this.records.archiveEntry(this.db.manager, customerId, entryId);
    if (!entry)
      throw DomainError.notFound(`Archive entry ${entryId} of customer ${customerId} does not exist`);
    return archiveEntryView(scope, customerId, entry);
  }

  async documentFile(scope: EmployeeScope, customerId: string, entryId: string): Promise<DocumentFile> {
    await assertVisibleCustomer(this.db.manager, scope, customerId);
    const file = await this.records.documentFile(this.db.manager, customerId, entryId);
    if (!file)
      throw DomainError.notFound(`Archive entry ${entryId} of customer ${customerId} has no stored document`);
    return file;
  }
}

function contractView(contract: ContractRecord): VertragView {
  return {
    Id: contract.id,
    Vertragsnummer: contract.policyNumber,
    Vermittler: contract.brokerNumber,
    Gesellschaft: { Id: contract.vuNumber, Name: contract.companyName },
    Sparte: contract.lineOfBusiness,
    Status: contract.status,
    Beginn: contract.startDate,
    Ablauf: contract.endDate,
    Hauptfaelligkeit: contract.mainDueDate,
    Zahlweise: contract.paymentMode,
    Nettobeitrag: amount(contract.netPremiumCents),
    Bruttobeitrag: amount(contract.grossPremiumCents),
    Waehrung: contract.currency,
  };
}

function archiveEntryView(
  scope: EmployeeScope,
  customerId: string,
  entry: ArchiveEntryRecord,
): ArchiveintragView {
  const uri = customerPath(scope, customerId, 'archiveintraege', entry.id);
  return {
    Uri: uri,
    Id: entry.id,
    Typ: entry.type,
    Titel: entry.title,
    Datum: formatDateTime(new Date(entry.date)),
    Dokument: entry.document
      ? {
          Dateiname: entry.document.fileName,
          MimeType: entry.document.mimeType,
          Groesse: entry.document.size,
          ...(entry.document.stored ? { Uri: `${uri}/dokument` } : {}),
        }
      : null,
  };
}
