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

/** The rows a file writes: new ones, and stored ones it changes. */
export interface MasterDataWrites {
  created: MasterDataValues[];
  changed: MasterDataValues[];
}

const all = ({ created, changed }: MasterDataWrites) => [...created, ...changed];

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
  /**
   * Writes the rows created and the rows changed (every column's final value), set-based; `named`: the columns the
   * file names, the only ones a changed row's update sets.
   */
  write(
    db: EntityManager,
    tenantId: string,
    rows: MasterDataWrites,
    named: ReadonlySet<string>,
  ): Promise<void>;
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

/** The deepest level a file may place a broker at (top = 1): each level of new brokers is one statement. */
export const MASTER_DATA_MAX_LEVELS = 32;

/** Where a broker would stand in the tree a file leaves: at a level (top = 1), on a cycle, or below one. */
type Standing = { level: number } | { cycle: string[]; at: number } | 'below a cycle';

/**
 * Every broker's standing in the tree the file would leave (`parentOf`: the stored parents, replaced by the file's),
 * each broker visited once: a walk up from a broker not yet placed ends at the top, at a placed broker, or back on
 * itself (a cycle).
 */
function standings(parentOf: Map<string, string | null>): Map<string, Standing> {
  const placed = new Map<string, Standing>();
  for (const start of parentOf.keys()) {
    const path: string[] = [];
    const onPath = new Map<string, number>();
    let at: string | null = start;
    while (at !== null && !placed.has(at) && !onPath.has(at)) {
      onPath.set(at, path.length);
      path.push(at);
      at = parentOf.get(at) ?? null;
    }
    const cycleStart = at === null ? undefined : onPath.get(at);
    if (cycleStart !== undefined) {
      const cycle = path.slice(cycleStart);
      cycle.forEach((number, index) => placed.set(number, { cycle, at: index }));
      path.slice(0, cycleStart).forEach((number) => placed.set(number, 'below a cycle'));
      continue;
    }
    const above = at === null ? { level: 0 } : placed.get(at);
    path.forEach((number, index) =>
      placed.set(
        number,
        above !== undefined && typeof above === 'object' && 'level' in above
          ? { level: above.level + path.length - index }
          : 'below a cycle',
      ),
    );
  }
  return placed;
}

const CHAIN_SHOWN = 5;

/** `A → B → C → A`, or `A → B → C → D → E → … (7 more) → A` for a long cycle. */
function cycleChain({ cycle, at }: { cycle: string[]; at: number }): string {
  const shown = Array.from(
    { length: Math.min(cycle.length, CHAIN_SHOWN) },
    (_, step) => cycle[(at + step) % cycle.length],
  );
  const more = cycle.length > CHAIN_SHOWN ? [`… (${cycle.length - CHAIN_SHOWN} more)`] : [];
  return [...shown, ...more, cycle[at]].join(' → ');
}

/** A line error for every row that would end up below itself, or deeper than MASTER_DATA_MAX_LEVELS. */
function misplaced(records: MasterDataRecord[], parentOf: Map<string, string | null>): MasterDataLineError[] {
  const placed = standings(parentOf);
  return records.flatMap((record): MasterDataLineError[] => {
    const number = String(record.values.number);
    const standing = placed.get(number);
    if (typeof standing !== 'object') return [];
    if ('cycle' in standing)
      return [
        { line: record.line, message: `broker ${number} would be below itself: ${cycleChain(standing)}` },
      ];
    return standing.level > MASTER_DATA_MAX_LEVELS
      ? [
          {
            line: record.line,
            message: `broker ${number} would be on level ${standing.level}; a file places brokers on at most ${MASTER_DATA_MAX_LEVELS} levels`,
          },
        ]
      : [];
  });
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
      ...misplaced(
        records.filter((record) => !selfParented.has(record.line)),
        parentOf,
      ),
    ]);
  },
  async write(db, tenantId, { created, changed }, named) {
    const ids = await brokerIds(db, tenantId, [
      ...changed.map((row) => String(row.number)),
      ...[...created, ...changed].flatMap((row) => (row.parent === null ? [] : [String(row.parent)])),
    ]);
    // New brokers level by level, each below a superior that exists by then: none of them is moved afterwards (a
    // move makes the customers' search follow the broker's new chain, which costs per broker moved).
    for (const level of levelsOf(created)) {
      const fields = ['number', 'name', 'blocked', ...PROFILE];
      const inserted = await db.query<{ id: string; number: string }[]>(
        `INSERT INTO broker.broker (tenant_id, ${fields.map(brokerColumn).join(', ')}, parent_id)
         SELECT $1, * FROM unnest(${unnestParameters(fields, 2)}, $${fields.length + 2}::bigint[])
         RETURNING id::text, broker_number AS number`,
        [tenantId, ...fields.map((name) => column(level, name)), level.map((row) => parentId(ids, row))],
      );
      for (const row of inserted) ids.set(row.number, row.id);
    }
    if (changed.length === 0) return;
    // Only the columns the file names: a column it leaves out keeps what the API may have written meanwhile.
    const fields = ['name', 'blocked', ...PROFILE].filter((name) => named.has(name));
    const parent = named.has('parent') ? ['parent_id = u.parent_id'] : [];
    await db.query(
      `UPDATE broker.broker b SET ${[...fields.map((name) => `${name} = u.${name}`), ...parent].join(', ')}
         FROM unnest($1::bigint[], ${unnestParameters(fields, 2)}, $${fields.length + 2}::bigint[])
              AS u(id, ${fields.join(', ')}, parent_id)
        WHERE b.id = u.id`,
      [
        changed.map((row) => ids.get(String(row.number))),
        ...fields.map((name) => column(changed, name)),
        changed.map((row) => parentId(ids, row)),
      ],
    );
  },
};

/** The broker column a field of the file is stored in. */
const brokerColumn = (field: string) => (field === 'number' ? 'broker_number' : field);

/** `$2::text[], $3::boolean[], …`: one array parameter per field, numbered from `first`. */
const unnestParameters = (fields: string[], first: number) =>
  fields.map((field, index) => `$${index + first}::${field === 'blocked' ? 'boolean' : 'text'}[]`).join(', ');

/** The ids of the tenant's brokers of these numbers, by number. */
async function brokerIds(
  db: EntityManager,
  tenantId: string,
  numbers: string[],
): Promise<Map<string, string>> {
  const rows = await db.query<{ id: string; number: string }[]>(
    `SELECT id::text, broker_number AS number FROM broker.broker
      WHERE tenant_id = $1 AND broker_number = ANY($2::text[])`,
    [tenantId, [...new Set(numbers)]],
  );
  return new Map(rows.map((row) => [row.number, row.id]));
}

const parentId = (ids: Map<string, string>, row: MasterDataValues) =>
  row.parent === null ? null : (ids.get(String(row.parent)) ?? null);

/** New brokers by their depth among the new ones: a broker's superior is stored or in an earlier level. */
function levelsOf(created: MasterDataValues[]): MasterDataValues[][] {
  const byNumber = new Map(created.map((row) => [String(row.number), row]));
  const depths = new Map<string, number>();
  const depthOf = (number: string): number => {
    const known = depths.get(number);
    if (known !== undefined) return known;
    const parent = byNumber.get(number)?.parent;
    // The file's check refused cycles and trees deeper than MASTER_DATA_MAX_LEVELS: this recurses that deep at most.
    const depth = typeof parent === 'string' && byNumber.has(parent) ? depthOf(parent) + 1 : 0;
    depths.set(number, depth);
    return depth;
  };
  const levels: MasterDataValues[][] = [];
  for (const row of created) (levels[depthOf(String(row.number))] ??= []).push(row);
  return levels;
}

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
  async write(db, tenantId, writes, named) {
    const rows = all(writes);
    // Only the columns the file names: a column it leaves out keeps what the API may have written meanwhile.
    const updated = [
      ['name', 'name'],
      ['email', 'email'],
      ['disabled', 'blocked'],
    ].flatMap(([field, name]) => (named.has(field) ? [`${name} = EXCLUDED.${name}`] : []));
    await db.query(
      `INSERT INTO broker.employee (tenant_id, broker_id, employee_code, name, email, blocked)
       SELECT $1, b.id, u.number, u.name, u.email, u.disabled
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[]) AS u(broker, number, name, email, disabled)
         JOIN broker.broker b ON b.tenant_id = $1 AND b.broker_number = u.broker
       ON CONFLICT (tenant_id, broker_id, employee_code) DO UPDATE SET ${updated.join(', ')}`,
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
  async write(db, tenantId, writes) {
    const rows = all(writes);
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
  async write(db, tenantId, writes) {
    const rows = all(writes);
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
