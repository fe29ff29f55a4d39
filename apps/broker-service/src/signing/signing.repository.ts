import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { LINK_STATE_COLUMNS, type LinkState } from '../customer-pages/link-parts.js';
import { sha256Hex } from '../notifications/link-tokens.js';
import type { MandateTemplate } from './mandate-text.js';

interface PostalAddress {
  street: string | null;
  postalCode: string | null;
  city: string | null;
}

/** A signature link with what its page shows: the customer, the broker and the tenant's mandate template. */
export interface SigningLink extends LinkState {
  customer: PostalAddress & {
    personType: 'natuerlich' | 'juristisch';
    title: string | null;
    firstName: string | null;
    lastName: string | null;
    companyName: string | null;
  };
  broker: PostalAddress & { name: string; email: string | null; phone: string | null };
  template: MandateTemplate | null;
}

/** The stored mandate: the PDF as a document of the customer, its archive entry and the audit record. */
export interface MandateRecord {
  title: string;
  fileName: string;
  pdf: Uint8Array;
  signedAt: Date;
  audit: { clientAddress: string; userAgent: string | null; details: Record<string, unknown> };
}

const MANDATE_ENTRY_TYPE = 'maklervollmacht';
/** Where the bytes of the documents this service writes itself are kept. */
const DOCUMENT_CONTENT_STORAGE = 'broker.document_content';

/**
 * Redeems the signature links that notifications/link-tokens.ts issues (purpose maklervollmacht) and stores
 * what was signed. The state is decided by the database clock, like the expiry was set.
 */
@Injectable()
export class SigningRepository {
  /** The link of `token` in the tenant, locked for update with `lock`; undefined when there is none. */
  async find(
    db: EntityManager,
    tenantCode: string,
    token: string,
    lock = false,
  ): Promise<SigningLink | undefined> {
    const [row] = await db.query<SigningLink[]>(
      `SELECT ${LINK_STATE_COLUMNS},
              json_build_object('personType', c.person_type, 'title', c.title, 'firstName', c.first_name,
                                'lastName', c.last_name, 'companyName', c.company_name, 'street', a.street,
                                'postalCode', a.postal_code, 'city', a.city) AS customer,
              json_build_object('name', b.name, 'street', b.street, 'postalCode', b.postal_code, 'city', b.city,
                                'email', b.email, 'phone', b.phone) AS broker,
              CASE WHEN m.tenant_id IS NULL THEN NULL
                   ELSE json_build_object('title', m.title, 'body', m.body) END AS template
         FROM broker.customer_link_token t
         JOIN broker.tenant tn ON tn.id = t.tenant_id
         JOIN broker.customer c ON c.id = t.customer_id
         JOIN broker.broker b ON b.id = c.broker_id
         LEFT JOIN broker.address a ON a.customer_id = c.id AND a.address_no = 0
         LEFT JOIN broker.mandate_template m ON m.tenant_id = t.tenant_id
        WHERE tn.code = $1 AND t.token_sha256 = $2 AND t.purpose = 'maklervollmacht'
        ${lock ? 'FOR UPDATE OF t' : ''}`,
      [tenantCode, sha256Hex(token)],
    );
    return row;
  }

  /**
   * Stores the signed mandate as document and archive entry, makes it the customer's Maklervollmacht, marks the
   * link used and records the audit event: in the caller's transaction, with the link locked by `find`.
   */
  async storeSignedMandate(db: EntityManager, link: SigningLink, mandate: MandateRecord): Promise<void> {
    const documentId = await this.insertDocument(db, link, mandate);
    const [entry] = await db.query<{ id: string }[]>(
      `INSERT INTO broker.archive_entry (tenant_id, customer_id, entry_type, title, entry_date, document_id)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id::text`,
      [link.tenantId, link.customerId, MANDATE_ENTRY_TYPE, mandate.title, mandate.signedAt, documentId],
    );
    await db.query('UPDATE broker.customer SET mandate_archive_entry_id = $2 WHERE id = $1', [
      link.customerId,
      entry.id,
    ]);
    await db.query('UPDATE broker.customer_link_token SET used_at = $2 WHERE id = $1', [
      link.id,
      mandate.signedAt,
    ]);
    const { clientAddress, userAgent, details } = mandate.audit;
    await db.query(
      `INSERT INTO broker.audit_event
         (tenant_id, customer_id, action, actor_kind, actor, target, client_address, user_agent, details)
       VALUES ($1, $2, 'maklervollmacht_unterschrieben', 'customer', 'kunde', $6, $3, $4, $5)`,
      [
        link.tenantId,
        link.customerId,
        clientAddress,
        userAgent,
        { ...details, linkId: link.id, archiveEntryId: entry.id, documentId },
        `customers/${link.customerId}`,
      ],
    );
  }

  private async insertDocument(
    db: EntityManager,
    link: SigningLink,
    mandate: MandateRecord,
  ): Promise<string> {
    const [document] = await db.query<{ id: string }[]>(
      `INSERT INTO broker.document (tenant_id, customer_id, title, file_name, mime_type, size_bytes, sha256, storage_key)
       VALUES ($1, $2, $3, $4, 'application/pdf', $5, $6, $7) RETURNING id::text`,
      [
        link.tenantId,
        link.customerId,
        mandate.title,
        mandate.fileName,
        mandate.pdf.length,
        sha256Hex(mandate.pdf),
        DOCUMENT_CONTENT_STORAGE,
      ],
    );
    await db.query(
      'INSERT INTO broker.document_content (document_id, tenant_id, content) VALUES ($1, $2, $3)',
      [document.id, link.tenantId, Buffer.from(mandate.pdf)],
    );
    return document.id;
  }
}
