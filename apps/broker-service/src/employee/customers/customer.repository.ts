import type { NoteType, Salutation } from '@broker/contracts';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { visibleBrokersCte } from '@broker/inventory';
import type { EmployeeScope } from '../employee-scope.js';

/** The stored customer fields the employee service reads and writes (dates as YYYY-MM-DD text). */
export interface CustomerFields {
  salutation: Salutation | null;
  perDu: boolean;
  deceased: boolean;
  relationshipEndedOn: string | null;
  userName: string | null;
  personType: 'natuerlich' | 'juristisch';
  title: string | null;
  firstName: string | null;
  lastName: string | null;
  birthDate: string | null;
  occupation: string | null;
  specialty: string | null;
  companyName: string | null;
  contactPerson: string | null;
  foundingDate: string | null;
  industry: string | null;
  notifyUserName: boolean;
  notifyPasswordLink: boolean;
  suppressInitialInfo: boolean;
}

export interface CustomerRecord extends CustomerFields {
  id: string;
  brokerNumber: string;
  mandateArchiveEntryId: string | null;
  note: { type: NoteType; text: string } | null;
}

const COLUMNS: Record<keyof CustomerFields, string> = {
  salutation: 'salutation',
  perDu: 'per_du',
  deceased: 'deceased',
  relationshipEndedOn: 'relationship_ended_on',
  userName: 'user_name',
  personType: 'person_type',
  title: 'title',
  firstName: 'first_name',
  lastName: 'last_name',
  birthDate: 'birth_date',
  occupation: 'occupation',
  specialty: 'specialty',
  companyName: 'company_name',
  contactPerson: 'contact_person',
  foundingDate: 'founding_date',
  industry: 'industry',
  notifyUserName: 'notify_user_name',
  notifyPasswordLink: 'notify_password_link',
  suppressInitialInfo: 'suppress_initial_info',
};
const FIELDS = Object.keys(COLUMNS) as (keyof CustomerFields)[];
const DATE_FIELDS = new Set<keyof CustomerFields>(['relationshipEndedOn', 'birthDate', 'foundingDate']);

const selectList = FIELDS.map((field) =>
  DATE_FIELDS.has(field) ? `c.${COLUMNS[field]}::text AS "${field}"` : `c.${COLUMNS[field]} AS "${field}"`,
).join(', ');

/** PostgreSQL's unique violation of the user-name index. */
export function isUserNameTaken(error: unknown): boolean {
  const driverError = (error as { driverError?: { code?: string; constraint?: string } }).driverError;
  return driverError?.code === '23505' && driverError.constraint === 'customer_user_name_key';
}

@Injectable()
export class CustomerRepository {
  /** The customer when the scope may see it (locked for update with `lock`), else undefined. */
  async find(
    db: EntityManager,
    scope: EmployeeScope,
    customerId: string,
    lock = false,
  ): Promise<CustomerRecord | undefined> {
    const [row] = await db.query<CustomerRecord[]>(
      `WITH RECURSIVE ${visibleBrokersCte(1, 2)}
       SELECT c.id::text AS id, b.broker_number AS "brokerNumber",
              c.mandate_archive_entry_id::text AS "mandateArchiveEntryId", ${selectList},
              (SELECT json_build_object('type', n.note_type, 'text', n.text) FROM broker.customer_note n
                WHERE n.customer_id = c.id ORDER BY n.id DESC LIMIT 1) AS note
         FROM broker.customer c
         JOIN visible_broker v ON v.id = c.broker_id
         JOIN broker.broker b ON b.id = c.broker_id
        WHERE c.tenant_id = $1 AND c.id = $3 ${lock ? 'FOR UPDATE OF c' : ''}`,
      [scope.tenantId, scope.brokerId, customerId],
    );
    return row;
  }

  async insert(
    db: EntityManager,
    tenantId: string,
    brokerId: string,
    fields: CustomerFields,
  ): Promise<string> {
    const [row] = await db.query<{ id: string }[]>(
      `INSERT INTO broker.customer (tenant_id, broker_id, ${FIELDS.map((field) => COLUMNS[field]).join(', ')})
       VALUES ($1, $2, ${FIELDS.map((_, index) => `$${index + 3}`).join(', ')})
       RETURNING id::text`,
      [tenantId, brokerId, ...FIELDS.map((field) => fields[field])],
    );
    return row.id;
  }

  async update(db: EntityManager, customerId: string, fields: CustomerFields): Promise<void> {
    await db.query(
      `UPDATE broker.customer SET ${FIELDS.map((field, index) => `${COLUMNS[field]} = $${index + 2}`).join(', ')}
        WHERE id = $1`,
      [customerId, ...FIELDS.map((field) => fields[field])],
    );
  }

  async userNameExists(db: EntityManager, tenantId: string, userName: string): Promise<boolean> {
    const rows = await db.query<unknown[]>(
      'SELECT 1 FROM broker.customer WHERE tenant_id = $1 AND lower(user_name) = lower($2)',
      [tenantId, userName],
    );
    return rows.length > 0;
  }

  /** The tenant's user names (lower case) that start with `prefix`. */
  async userNamesStartingWith(db: EntityManager, tenantId: string, prefix: string): Promise<string[]> {
    const rows = await db.query<{ name: string }[]>(
      `SELECT lower(user_name) AS name FROM broker.customer
        WHERE tenant_id = $1 AND lower(user_name) LIKE $2 || '%'`,
      [tenantId, prefix.replace(/[%_\\]/g, (character) => `\\${character}`)],
    );
    return rows.map((row) => row.name);
  }

  async addNote(db: EntityManager, tenantId: string, customerId: string, type: string, text: string) {
    await db.query(
      'INSERT INTO broker.customer_note (tenant_id, customer_id, note_type, text) VALUES ($1, $2, $3, $4)',
      [tenantId, customerId, type, text],
    );
  }
}
