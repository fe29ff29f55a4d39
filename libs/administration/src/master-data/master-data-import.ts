import type { DataSource, EntityManager } from 'typeorm';
import {
  MASTER_DATA_MAX_LISTED_ROWS,
  type MasterDataChange,
  type MasterDataKind,
  type MasterDataLineError,
  type MasterDataResult,
  type MasterDataRowOutcome,
} from '@broker/contracts';
import { lockBrokerHierarchy } from '@broker/inventory';
import { inTransaction, recordAuditEvent, type WriteContext } from '../audit-trail.js';
import { tenantIdOf } from '../tenants.js';
import type { CellValue } from './master-data-columns.js';
import { MASTER_DATA_MAX_BAD_LINES, type MasterDataRow, parseMasterDataCsv } from './master-data-csv.js';
import {
  keyOf,
  MASTER_DATA_KINDS_SPECS,
  type MasterDataKindSpec,
  type MasterDataRecord,
  type MasterDataValues,
} from './master-data-kinds.js';

/** A row to write, every column at its final value. */
interface PlannedWrite {
  key: string;
  values: MasterDataValues;
}

/**
 * New rows, changed rows (with the columns each changes), how many rows the file leaves as they are, and what each
 * row does, by line.
 */
interface Plan {
  created: PlannedWrite[];
  changed: (PlannedWrite & { changes: MasterDataValues })[];
  unchanged: number;
  outcomes: MasterDataRowOutcome[];
}

/** The columns a kind's file must name, and every column it may name. */
export function masterDataColumns(kind: MasterDataKind): { required: string[]; known: string[] } {
  const { columns } = MASTER_DATA_KINDS_SPECS[kind];
  return {
    required: columns.filter((column) => column.required).map((column) => column.name),
    known: columns.map((column) => column.name),
  };
}

/** Each row's cells read by its kind's columns; a row with a bad cell is a line error (its problems together). */
function readRows(spec: MasterDataKindSpec, rows: MasterDataRow[]) {
  const records: MasterDataRecord[] = [];
  const errors: MasterDataLineError[] = [];
  const firstLineOf = new Map<string, number>();
  for (const row of rows) {
    const values: MasterDataValues = {};
    const problems: string[] = [];
    for (const column of spec.columns) {
      const cell = row.cells[column.name];
      if (cell === undefined) continue;
      const reading = column.read(cell);
      if ('problem' in reading) problems.push(reading.problem);
      else values[column.name] = reading.value;
    }
    if (problems.length > 0) {
      errors.push({ line: row.line, message: problems.join('; ') });
      continue;
    }
    const key = keyOf(spec.key, values);
    const first = firstLineOf.get(key);
    if (first !== undefined) errors.push({ line: row.line, message: `${key} is already on line ${first}` });
    else {
      firstLineOf.set(key, row.line);
      records.push({ line: row.line, key, values });
    }
  }
  return { records, errors };
}

/**
 * One file of a kind at a time per tenant, from its check to its write: two at once would each count and write
 * against what the other is about to change. For brokers the tenant's tree itself, which every move takes too.
 */
async function lockKind(tx: EntityManager, tenantId: string, kind: MasterDataKind): Promise<void> {
  if (kind === 'brokers') await lockBrokerHierarchy(tx, tenantId, 'exclusive');
  else
    await tx.query(
      `SELECT pg_advisory_xact_lock(hashtextextended('broker master data ' || $1 || ' ' || $2, 0))`,
      [tenantId, kind],
    );
}

/** The columns a file names (each of its rows has a cell for each). */
const namedColumns = (rows: MasterDataRow[]) => new Set(rows.flatMap((row) => Object.keys(row.cells)));

/** The first MASTER_DATA_MAX_BAD_LINES bad lines, and how many more there are (a file is refused either way). */
function listed(errors: MasterDataLineError[]): MasterDataLineError[] {
  if (errors.length <= MASTER_DATA_MAX_BAD_LINES) return errors;
  const shown = errors.slice(0, MASTER_DATA_MAX_BAD_LINES);
  const more = errors.length - MASTER_DATA_MAX_BAD_LINES;
  return [
    ...shown,
    { line: shown[shown.length - 1].line, message: `${more} more bad line(s) after this one are not listed` },
  ];
}

/** Which rows are new, which change stored rows (and how), and how many leave them as they are. */
function planWrites(
  spec: MasterDataKindSpec,
  records: MasterDataRecord[],
  stored: Map<string, MasterDataValues>,
): Plan {
  const defaults = Object.fromEntries(spec.columns.map((column) => [column.name, column.default]));
  const plan: Plan = { created: [], changed: [], unchanged: 0, outcomes: [] };
  for (const { line, key, values } of records) {
    const before = stored.get(key);
    if (!before) {
      plan.created.push({ key, values: { ...defaults, ...values } });
      plan.outcomes.push({ line, key, outcome: 'created', changes: [] });
      continue;
    }
    const changes = Object.fromEntries(
      Object.entries(values).filter(([name, value]) => !sameValue(before[name], value)),
    );
    if (Object.keys(changes).length === 0) {
      plan.unchanged++;
      plan.outcomes.push({ line, key, outcome: 'unchanged', changes: [] });
    } else {
      plan.changed.push({ key, values: { ...defaults, ...before, ...values }, changes });
      plan.outcomes.push({ line, key, outcome: 'updated', changes: changesOf(before, changes) });
    }
  }
  return plan;
}

const changesOf = (before: MasterDataValues, changes: MasterDataValues): MasterDataChange[] =>
  Object.entries(changes).map(([column, to]) => ({ column, from: before[column] ?? null, to }));

const sameValue = (stored: CellValue | undefined, given: CellValue) => (stored ?? null) === given;

/**
 * Master data in bulk, as a pool copies it from its own systems (nightly): brokers, employees, insurers and
 * agreements, each kind from a CSV file with a header row. Rows are created or updated by their key (a row the
 * file does not name is left alone, nothing is deleted); a column the file leaves out keeps its stored values.
 * Idempotent: a second upload of the same file finds every row unchanged and writes nothing. A file with any bad
 * line writes nothing and lists every bad line; a dry run checks and counts and writes nothing either way.
 */
export class MasterDataImport {
  constructor(private readonly db: DataSource) {}

  async importCsv(
    context: WriteContext,
    tenantCode: string,
    kind: MasterDataKind,
    csv: string,
    options: { dryRun: boolean },
  ): Promise<MasterDataResult> {
    const parsed = await parseMasterDataCsv(csv, masterDataColumns(kind));
    return this.importRows(context, tenantCode, kind, parsed.rows, options, parsed.errors);
  }

  /** The rows of a file already read (the demo seed gives them as data); `readErrors`: lines that were no row. */
  async importRows(
    context: WriteContext,
    tenantCode: string,
    kind: MasterDataKind,
    rows: MasterDataRow[],
    options: { dryRun: boolean },
    readErrors: MasterDataLineError[] = [],
  ): Promise<MasterDataResult> {
    const spec = MASTER_DATA_KINDS_SPECS[kind];
    const { records, errors } = readRows(spec, rows);
    return inTransaction(this.db, context, async (tx) => {
      const tenantId = await tenantIdOf(tx, tenantCode);
      if (!options.dryRun) await lockKind(tx, tenantId, kind);
      const stored = await spec.load(tx, tenantId, records);
      errors.push(...readErrors, ...(await spec.check(tx, tenantId, records, stored)));
      errors.sort((a, b) => a.line - b.line);
      // A row with a bad line is counted and listed as nothing but that.
      const badLines = new Set(errors.map((error) => error.line));
      const plan = planWrites(
        spec,
        records.filter((record) => !badLines.has(record.line)),
        stored,
      );
      const result: MasterDataResult = {
        kind,
        dry_run: options.dryRun,
        created: plan.created.length,
        updated: plan.changed.length,
        unchanged: plan.unchanged,
        rows: plan.outcomes.slice(0, MASTER_DATA_MAX_LISTED_ROWS),
        rows_not_listed: Math.max(0, plan.outcomes.length - MASTER_DATA_MAX_LISTED_ROWS),
        errors: listed(errors),
      };
      if (errors.length === 0 && !options.dryRun && plan.created.length + plan.changed.length > 0)
        await this.write(tx, context, { tenantId, spec, plan, named: namedColumns(rows) });
      return result;
    });
  }

  private async write(
    tx: EntityManager,
    context: WriteContext,
    {
      tenantId,
      spec,
      plan,
      named,
    }: { tenantId: string; spec: MasterDataKindSpec; plan: Plan; named: ReadonlySet<string> },
  ): Promise<void> {
    await spec.write(
      tx,
      tenantId,
      {
        created: plan.created.map((write) => write.values),
        changed: plan.changed.map((write) => write.values),
      },
      named,
    );
    await recordAuditEvent(tx, context.actor, {
      tenantId,
      action: context.operation ?? 'importMasterData',
      target: `master-data/${spec.kind}`,
      changes: {
        created: plan.created.map((write) => write.key),
        updated: Object.fromEntries(plan.changed.map((write) => [write.key, write.changes])),
        unchanged: plan.unchanged,
      },
    });
  }
}
