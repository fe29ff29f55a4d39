import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export interface ContractRecord {
  id: string;
  policyNumber: string;
  brokerNumber: string;
  vuNumber: string;
  companyName: string;
  lineOfBusiness: string;
  status: string;
  startDate: string | null;
  endDate: string | null;
  mainDueDate: string | null;
  paymentMode: string | null;
  netPremiumCents: string | null;
  grossPremiumCents: string | null;
  currency: string;
}

export interface ArchiveEntryRecord {
  id: string;
  type: string;
  title: string;
  date: Date;
  document: {
    id: string;
    fileName: string;
    mimeType: string;
    size: number;
    /** Whether this service holds the bytes (broker.document_content), so that they can be downloaded. */
    stored: boolean;
  } | null;
}

export interface DocumentFile {
  fileName: string;
  mimeType: string;
  content: Buffer;
}

const ARCHIVE_SELECT = `
  SELECT e.id::text, e.entry_type AS type, e.title, e.entry_date AS date,
         CASE WHEN d.id IS NULL THEN NULL
              ELSE json_build_object('id', d.id::text, 'fileName', d.file_name, 'mimeType', d.mime_type,
                                     'size', d.size_bytes,
                                     'stored', EXISTS (SELECT 1 FROM broker.document_content dc
                                                        WHERE dc.document_id = d.id)) END AS document
    FROM broker.archive_entry e LEFT JOIN broker.document d ON d.id = e.document_id`;

/** The read-only records of a customer: contracts, archive entries and their documents. */
@Injectable()
export class RecordsRepository {
  async contracts(db: EntityManager, customerId: string): Promise<ContractRecord[]> {
    return db.query(
      `SELECT k.id::text, k.policy_number AS "policyNumber", b.broker_number AS "brokerNumber",
              co.vu_number AS "vuNumber", co.name AS "companyName", k.line_of_business AS "lineOfBusiness",
              k.status, k.start_date::text AS "startDate", k.end_date::text AS "endDate",
              k.main_due_date::text AS "mainDueDate", k.payment_mode AS "paymentMode",
              k.net_premium_cents::text AS "netPremiumCents", k.gross_premium_cents::text AS "grossPremiumCents",
              k.currency
         FROM broker.contract k
         JOIN broker.company co ON co.id = k.company_id
         JOIN broker.broker b ON b.id = k.broker_id
        WHERE k.customer_id = $1 ORDER BY k.start_date DESC NULLS LAST, k.id`,
      [customerId],
    );
  }

  async archiveEntries(
    db: EntityManager,
    customerId: string,
    withDocumentOnly: boolean,
  ): Promise<ArchiveEntryRecord[]> {
    return db.query(
      `${ARCHIVE_SELECT} WHERE e.customer_id = $1 ${withDocumentOnly ? 'AND d.id IS NOT NULL' : ''}
        ORDER BY e.entry_date DESC, e.id DESC`,
      [customerId],
    );
  }

  async archiveEntry(
    db: EntityManager,
    customerId: string,
    entryId: string,
  ): Promise<ArchiveEntryRecord | undefined> {
    const [row] = await db.query<ArchiveEntryRecord[]>(
      `${ARCHIVE_SELECT} WHERE e.customer_id = $1 AND e.id = $2`,
      [customerId, entryId],
    );
    return row;
  }

  /** The file of an archive entry, when this service stores its bytes. */
  async documentFile(
    db: EntityManager,
    customerId: string,
    entryId: string,
  ): Promise<DocumentFile | undefined> {
    const [row] = await db.query<DocumentFile[]>(
      `SELECT d.file_name AS "fileName", d.mime_type AS "mimeType", dc.content
         FROM broker.archive_entry e
         JOIN broker.document d ON d.id = e.document_id
         JOIN broker.document_content dc ON dc.document_id = d.id
        WHERE e.customer_id = $1 AND e.id = $2`,
      [customerId, entryId],
    );
    return row;
  }
}
