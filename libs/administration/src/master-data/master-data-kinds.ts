import type { EntityManager } from 'typeorm';
import type { MasterDataKind, MasterDataLineError } from '@broker/contracts';
import {
  AGREEMENT_COLUMNS,
  BROKER_COLUMNS,
  type CellValue,
  COMPANY_COLUMNS,
  EMPLOYEE_COLUMNS,
  type MasterDataColumn,
} from './master-data-columns.js';

/** A row's values by column (every column of its kind once merged with what is stored). */
export type MasterDataValues = Record<string, CellValue>;

/** A row of the file, read: its line and the values of the columns the file has. */
export interface MasterDataRecord {
  line: number;
  key: string;
  values: MasterDataValues;
}

/** What a kind of file writes: its columns, its key, how the stored rows are read and the rows written. */
export interface MasterDataKindSpec {
  kind: MasterDataKind;
  columns: MasterDataColumn[];
  /** The columns that name a row (a broker's number; an employee's broker and number). */
  key: string[];
  /** The stored rows the file's rows name, by key, with the values of every column. */
  load(
    db: EntityManager,
    tenantId: string,
    records: MasterDataRecord[],
  ): Promise<Map<string, MasterDataValues>>;
  /** What the rows must agree on with each other and with what is stored (references, the broker tree). */
  check(
    db: EntityManager,
    tenantId: string,
    records: MasterDataRecord[],
    stored: Map<string, MasterDataValues>,
  ): Promise<MasterDataLineError[]>;
  /** Writes the rows created or changed (every column's final value), set-based. */
  write(db: EntityManager, tenantId: string, rows: MasterDataValues[]): Promise<void>;
}

/** The key of a row, as the audit trail and the messages name it: `V1000`, `V1000/01_01`. */
export const keyOf = (key: string[], values: MasterDataValues) =>
  key.map((column) => String(values[column])).join('/');

/** The values of one column of `rows`, as a PostgreSQL array parameter. */
const column = (rows: MasterDataValues[], name: string) => rows.map((row) => row[name]);

/** The stored brokers of the tenant whose numbers are named, by number. */
async function storedBrokerNumbers(
  db: EntityManager,
  tenantId: string,
  numbers: string[],
): Promise<Set<string>> {
  const rows = await db.query<{ number: string }[]>(
    'SELECT broker_number AS number FROM broker.broker WHERE tenant_id = $1 AND broker_number = ANY($2::text[])',
    [tenantId, [...new Set(numbers)]],
  );
  return new Set(rows.map((row) => row.number));
}

/** A line error for every record whose `column` names a broker the tenant does not have. */
async function unknownBrokers(
  db: EntityManager,
  tenantId: string,
  records: MasterDataRecord[],
  column: string,
): Promise<MasterDataLineError[]> {
  const known = await storedBrokerNumbers(
    db,
    tenantId,
    records.map((record) => String(record.values[column])),
  );
  return records
    .filter((record) => !known.has(String(record.values[column])))
    .map((record) => ({
      line: record.line,
      message: `${column} ${String(record.values[column])} is not a broker of this tenant`,
    }));
}

const PROFILE = BROKER_COLUMNS.map((spec) => spec.name).filter(
  (name) => !['number', 'name', 'parent', 'blocked'].includes(name),
);

/**
 * Every row's chain of superiors, in the tree the file would leave (the stored parents, replaced by the file's):
 * a line error for a row that would end up below itself.
 */
function cycles(records: MasterDataRecord[], parentOf: Map<string, string | null>): MasterDataLineError[] {
  const errors: MasterDataLineError[] = [];
  for (const record of records) {
    const number = String(record.values.number);
    const chain = [number];
    for (let parent = parentOf.get(number); parent; parent = parentOf.get(parent)) {
      chain.push(parent);
      if (parent === number) {
        errors.push({
          line: record.line,
          message: `broker ${number} would be below itself: ${chain.join(' → ')}`,
        });
        break;
      }
      if (chain.length > parentOf.size + 1) break;
    }
  }
  return errors;
}

const brokers: MasterDataKindSpec = {
  kind: 'brokers',
  columns: BROKER_COLUMNS,
  key: ['number'],
  async load(db, tenantId) {
    // The whole tree: a cycle may run through brokers the file does not name.
    const rows = await db.query<MasterDataValues[]>(
      `SELECT b.broker_number AS number, b.name, p.broker_number AS parent, b.blocked, ${PROFILE.map((name) => `b.${name}`).join(', ')}
         FROM broker.broker b LEFT JOIN broker.broker p ON p.tenant_id = b.tenant_id AND p.id = b.parent_id
        WHERE b.tenant_id = $1`,
      [tenantId],
    );
    return new Map(rows.map((row) => [String(row.number), row]));
  },
  check(_db, _tenantId, records, stored) {
    const inFile = new Set(records.map((record) => String(record.values.number)));
    const parentOf = new Map([...stored].map(([number, row]) => [number, row.parent as string | null]));
    const errors: MasterDataLineError[] = [];
    for (const record of records) {
      const { number, parent } = record.values;
      if (parent === undefined) continue;
      parentOf.set(String(number), parent as string | null);
      if (parent === null) continue;
      if (parent === number)
        errors.push({ line: record.line, message: `broker ${number} cannot be its own parent` });
      else if (!inFile.has(parent as string) && !stored.has(parent as string))
        errors.push({
          line: record.line,
          message: `parent ${parent as string} is neither in the file nor a broker of this tenant`,
        });
    }
    const selfParented = new Set(errors.map((error) => error.line));
    return Promise.resolve([
      ...errors,
      ...cycles(
        records.filter((record) => !selfParented.has(record.line)),
        parentOf,
      ),
    ]);
  },
  async write(db, tenantId, rows) {
    const fields = ['number', 'name', 'blocked', ...PROFILE];
    const types = fields.map((name) => (name === 'blocked' ? 'boolean[]' : 'text[]'));
    const columns = ['broker_number', 'name', 'blocked', ...PROFILE];
    await db.query(
      `INSERT INTO broker.broker (tenant_id, ${columns.join(', ')})
       SELECT $1, * FROM unnest(${types.map((type, index) => `$${index + 2}::${type}`).join(', ')})
       ON CONFLICT (tenant_id, broker_number) DO UPDATE SET
         ${columns
           .slice(1)
           .map((name) => `${name} = EXCLUDED.${name}`)
           .join(', ')}`,
      [tenantId, ...fields.map((name) => column(rows, name))],
    );
    // Superiors once every broker of the file exists: a row may name a parent that comes later.
    await db.query(
      `UPDATE broker.broker b SET parent_id = p.id
         FROM unnest($2::text[], $3::text[]) AS u(number, parent)
         LEFT JOIN broker.broker p ON p.tenant_id = $1 AND p.broker_number = u.parent
        WHERE b.tenant_id = $1 AND b.broker_number = u.number AND b.parent_id IS DISTINCT FROM p.id`,
      [tenantId, column(rows, 'number'), column(rows, 'parent')],
    );
  },
};

const employees: MasterDataKindSpec = {
  kind: 'employees',
  columns: EMPLOYEE_COLUMNS,
  key: ['broker', 'number'],
  async load(db, tenantId, records) {
    const rows = await db.query<MasterDataValues[]>(
      `SELECT b.broker_number AS broker, e.employee_code AS number, e.name, e.email, e.blocked AS disabled
         FROM broker.employee e JOIN broker.broker b ON b.tenant_id = e.tenant_id AND b.id = e.broker_id
        WHERE e.tenant_id = $1 AND b.broker_number = ANY($2::text[])`,
      [tenantId, [...new Set(records.map((record) => record.values.broker))]],
    );
    return new Map(rows.map((row) => [keyOf(['broker', 'number'], row), row]));
  },
  check: (db, tenantId, records) => unknownBrokers(db, tenantId, records, 'broker'),
  async write(db, tenantId, rows) {
    await db.query(
      `INSERT INTO broker.employee (tenant_id, broker_id, employee_code, name, email, blocked)
       SELECT $1, b.id, u.number, u.name, u.email, u.disabled
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[]) AS u(broker, number, name, email, disabled)
         JOIN broker.broker b ON b.tenant_id = $1 AND b.broker_number = u.broker
       ON CONFLICT (tenant_id, broker_id, employee_code) DO UPDATE
         SET name = EXCLUDED.name, email = EXCLUDED.email, blocked = EXCLUDED.blocked`,
      [tenantId, ...['broker', 'number', 'name', 'email', 'disabled'].map((name) => column(rows, name))],
    );
  },
};

const companies: MasterDataKindSpec = {
  kind: 'companies',
  columns: COMPANY_COLUMNS,
  key: ['vu_number'],
  async load(db, tenantId, records) {
    const rows = await db.query<MasterDataValues[]>(
      'SELECT vu_number, name FROM broker.company WHERE tenant_id = $1 AND vu_number = ANY($2::text[])',
      [tenantId, records.map((record) => record.values.vu_number)],
    );
    return new Map(rows.map((row) => [String(row.vu_number), row]));
  },
  check: () => Promise.resolve([]),
  async write(db, tenantId, rows) {
    await db.query(
      `INSERT INTO broker.company (tenant_id, vu_number, name) SELECT $1, * FROM unnest($2::text[], $3::text[])
       ON CONFLICT (tenant_id, vu_number) DO UPDATE SET name = EXCLUDED.name`,
      [tenantId, column(rows, 'vu_number'), column(rows, 'name')],
    );
  },
};

const agreements: MasterDataKindSpec = {
  kind: 'agreements',
  columns: AGREEMENT_COLUMNS,
  key: ['broker', 'vu_number'],
  async load(db, tenantId, records) {
    const rows = await db.query<MasterDataValues[]>(
      `SELECT b.broker_number AS broker, co.vu_number, a.agency_number
         FROM broker.company_agreement a
         JOIN broker.broker b ON b.tenant_id = a.tenant_id AND b.id = a.broker_id
         JOIN broker.company co ON co.tenant_id = a.tenant_id AND co.id = a.company_id
        WHERE a.tenant_id = $1 AND b.broker_number = ANY($2::text[])`,
      [tenantId, [...new Set(records.map((record) => record.values.broker))]],
    );
    return new Map(rows.map((row) => [keyOf(['broker', 'vu_number'], row), row]));
  },
  async check(db, tenantId, records) {
    const known = await db.query<{ vu_number: string }[]>(
      'SELECT vu_number FROM broker.company WHERE tenant_id = $1 AND vu_number = ANY($2::text[])',
      [tenantId, [...new Set(records.map((record) => record.values.vu_number))]],
    );
    const companies = new Set(known.map((row) => row.vu_number));
    const unknownCompanies = records
      .filter((record) => !companies.has(String(record.values.vu_number)))
      .map((record) => ({
        line: record.line,
        message: `vu_number ${String(record.values.vu_number)} is not an insurer of this tenant`,
      }));
    return [...(await unknownBrokers(db, tenantId, records, 'broker')), ...unknownCompanies];
  },
  async write(db, tenantId, rows) {
    await db.query(
      `INSERT INTO broker.company_agreement (tenant_id, broker_id, company_id, agency_number)
       SELECT $1, b.id, co.id, u.agency_number
         FROM unnest($2::text[], $3::text[], $4::text[]) AS u(broker, vu_number, agency_number)
         JOIN broker.broker b ON b.tenant_id = $1 AND b.broker_number = u.broker
         JOIN broker.company co ON co.tenant_id = $1 AND co.vu_number = u.vu_number
       ON CONFLICT (tenant_id, broker_id, company_id) DO UPDATE SET agency_number = EXCLUDED.agency_number`,
      [tenantId, ...['broker', 'vu_number', 'agency_number'].map((name) => column(rows, name))],
    );
  },
};

export const MASTER_DATA_KINDS_SPECS: Record<MasterDataKind, MasterDataKindSpec> = {
  brokers,
  employees,
  companies,
  agreements,
};
