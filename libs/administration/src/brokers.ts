import type { DataSource, EntityManager } from 'typeorm';
import type { BrokerDetailView, BrokerPage, BrokerSort, BrokerView } from '@broker/contracts';
import { isAtOrBelow, lockBrokerHierarchy } from '@broker/inventory';
import { listApiClientsOf } from './api-clients.js';
import { inTransaction, recordAuditEvent, type WriteContext } from './audit-trail.js';
import { listEmployeesOf } from './employees.js';
import { brokerIdOf } from './broker-lookup.js';
import { conflict, invalid, notFound } from './errors.js';
import { pageOf, type PageRequest } from './paging.js';
import { containsPattern, utc } from './sql.js';
import { tenantIdOf } from './tenants.js';

/** A broker's profile beyond number, name, parent and state: what area C's Untervermittlerdatensatz carries. */
export const BROKER_PROFILE_COLUMNS = {
  nameSuffix: 'name_suffix',
  street: 'street',
  postalCode: 'postal_code',
  city: 'city',
  email: 'email',
  phone: 'phone',
  mobile: 'mobile',
  fax: 'fax',
  website: 'website',
  imprint: 'imprint',
} as const;

export type BrokerProfile = Partial<Record<keyof typeof BROKER_PROFILE_COLUMNS, string | null>>;

export interface NewBroker {
  number: string;
  name: string;
  /** The superior's number; null at the top of the tree. */
  parent: string | null;
  blocked: boolean;
  profile?: BrokerProfile;
}

/** Left out: unchanged. `parent: null` moves the broker to the top of the tree. */
export interface BrokerChanges {
  name?: string;
  parent?: string | null;
  blocked?: boolean;
}

/** A broker row as the use cases need it: its id and the fields an update compares. */
interface BrokerRow {
  id: string;
  name: string;
  parent: string | null;
  blocked: boolean;
}

export const BROKER_VIEW = `b.broker_number AS number, b.name, p.broker_number AS parent, b.blocked,
  (SELECT count(*)::int FROM broker.broker c WHERE c.tenant_id = b.tenant_id AND c.parent_id = b.id) AS sub_broker_count,
  ${utc('b.created_at')} AS created_at, ${utc('b.updated_at')} AS updated_at`;
export const BROKER_FROM = `broker.broker b LEFT JOIN broker.broker p ON p.tenant_id = b.tenant_id AND p.id = b.parent_id`;

const SORT_COLUMNS: Record<string, string> = {
  number: 'b.broker_number',
  name: 'b.name',
  updated_at: 'b.updated_at',
};

function orderOf(sort: BrokerSort): string {
  const descending = sort.startsWith('-');
  const column = SORT_COLUMNS[sort.replace(/^-/, '')];
  return `${column} ${descending ? 'DESC' : 'ASC'}, b.broker_number ${descending ? 'DESC' : 'ASC'}`;
}

/** Brokers and their hierarchy: the administration's and area C's one way to create and change them. */
export class BrokerAdministration {
  constructor(private readonly db: DataSource) {}

  async create(context: WriteContext, tenantCode: string, broker: NewBroker): Promise<BrokerView> {
    return inTransaction(this.db, context, async (tx) => {
      const tenantId = await tenantIdOf(tx, tenantCode);
      // A parent cannot move (or be moved below this broker) while the broker is placed under it.
      await lockBrokerHierarchy(tx, tenantId, 'shared');
      const parentId = broker.parent === null ? null : await this.parentIdOf(tx, tenantId, broker.parent);
      const profile = Object.entries(broker.profile ?? {}).filter(([, value]) => value !== undefined) as [
        keyof typeof BROKER_PROFILE_COLUMNS,
        string | null,
      ][];
      const columns = profile.map(([field]) => BROKER_PROFILE_COLUMNS[field]);
      const [row] = await tx.query<{ id: string }[]>(
        `INSERT INTO broker.broker (tenant_id, broker_number, parent_id, name, blocked${columns.map((c) => `, ${c}`).join('')})
         VALUES ($1, $2, $3, $4, $5${columns.map((_c, index) => `, $${index + 6}`).join('')})
         ON CONFLICT (tenant_id, broker_number) DO NOTHING RETURNING id::text`,
        [
          tenantId,
          broker.number,
          parentId,
          broker.name,
          broker.blocked,
          ...profile.map(([, value]) => value),
        ],
      );
      if (!row) throw conflict(`Broker ${broker.number} already exists`);
      await recordAuditEvent(tx, context.actor, {
        tenantId,
        action: context.operation ?? 'createBroker',
        target: `brokers/${broker.number}`,
        changes: {
          number: broker.number,
          name: broker.name,
          parent: broker.parent,
          blocked: broker.blocked,
          ...Object.fromEntries(profile),
        },
      });
      return this.view(tx, tenantId, row.id);
    });
  }

  /**
   * Changes name, state or superior. A move follows area C's rules: the new superior is a broker of the same tenant,
   * neither the broker itself nor one below it.
   */
  async update(
    context: WriteContext,
    tenantCode: string,
    number: string,
    changes: BrokerChanges,
  ): Promise<BrokerView> {
    return inTransaction(this.db, context, async (tx) => {
      const tenantId = await tenantIdOf(tx, tenantCode);
      await lockBrokerHierarchy(tx, tenantId, changes.parent === undefined ? 'shared' : 'exclusive');
      const current = await this.row(tx, tenantId, number);
      const columns = new Map<string, unknown>();
      const changed: Record<string, unknown> = {};
      if (changes.name !== undefined && changes.name !== current.name) {
        columns.set('name', changes.name);
        changed.name = changes.name;
      }
      if (changes.blocked !== undefined && changes.blocked !== current.blocked) {
        columns.set('blocked', changes.blocked);
        changed.blocked = changes.blocked;
      }
      if (changes.parent !== undefined && changes.parent !== current.parent) {
        columns.set('parent_id', await this.newParentId(tx, tenantId, current, number, changes.parent));
        changed.parent = changes.parent;
      }
      if (columns.size > 0) {
        const names = [...columns.keys()];
        await tx.query(
          `UPDATE broker.broker SET ${names.map((name, index) => `${name} = $${index + 3}`).join(', ')}
            WHERE tenant_id = $1 AND id = $2`,
          [tenantId, current.id, ...columns.values()],
        );
        await recordAuditEvent(tx, context.actor, {
          tenantId,
          action: context.operation ?? 'updateBroker',
          target: `brokers/${number}`,
          changes: changed,
        });
      }
      return this.view(tx, tenantId, current.id);
    });
  }

  /** Brokers of the tenant, filtered by superior (`-`: at the top) and by text in number or name. */
  async list(
    tenantCode: string,
    filter: { parent?: string; q?: string; sort: BrokerSort },
    page: PageRequest,
  ): Promise<BrokerPage> {
    const db = this.db.manager;
    const tenantId = await tenantIdOf(db, tenantCode);
    const conditions = ['b.tenant_id = $1'];
    const parameters: unknown[] = [tenantId];
    if (filter.parent === '-') conditions.push('b.parent_id IS NULL');
    else if (filter.parent !== undefined) {
      parameters.push(filter.parent);
      conditions.push(`p.broker_number = $${parameters.length}`);
    }
    if (filter.q !== undefined) {
      parameters.push(containsPattern(filter.q));
      const position = `$${parameters.length}`;
      conditions.push(`(b.broker_number ILIKE ${position} OR b.name ILIKE ${position})`);
    }
    return pageOf<BrokerView>(
      db,
      {
        select: BROKER_VIEW,
        from: `${BROKER_FROM} WHERE ${conditions.join(' AND ')}`,
        orderBy: orderOf(filter.sort),
        parameters,
      },
      page,
    );
  }

  async get(tenantCode: string, number: string): Promise<BrokerDetailView> {
    const db = this.db.manager;
    const tenantId = await tenantIdOf(db, tenantCode);
    const [broker] = await db.query<(BrokerView & { id: string; parent_name: string | null })[]>(
      `SELECT b.id::text, ${BROKER_VIEW}, p.name AS parent_name FROM ${BROKER_FROM}
        WHERE b.tenant_id = $1 AND b.broker_number = $2`,
      [tenantId, number],
    );
    if (!broker) throw notFound(`Broker ${number} does not exist`);
    const { id, ...view } = broker;
    const first = { offset: 0, limit: 100 };
    const employees = await listEmployeesOf(db, tenantId, id, first);
    const apiClients = await listApiClientsOf(db, tenantId, { brokerId: id }, first);
    return {
      ...view,
      employees: employees.items,
      employee_count: employees.total,
      api_clients: apiClients.items,
      api_client_count: apiClients.total,
    };
  }

  private async view(db: EntityManager, tenantId: string, brokerId: string): Promise<BrokerView> {
    const [view] = await db.query<BrokerView[]>(
      `SELECT ${BROKER_VIEW} FROM ${BROKER_FROM} WHERE b.tenant_id = $1 AND b.id = $2`,
      [tenantId, brokerId],
    );
    return view;
  }

  private async row(db: EntityManager, tenantId: string, number: string): Promise<BrokerRow> {
    const [row] = await db.query<BrokerRow[]>(
      `SELECT b.id::text, b.name, p.broker_number AS parent, b.blocked
         FROM ${BROKER_FROM} WHERE b.tenant_id = $1 AND b.broker_number = $2 FOR UPDATE OF b`,
      [tenantId, number],
    );
    if (!row) throw notFound(`Broker ${number} does not exist`);
    return row;
  }

  private async parentIdOf(db: EntityManager, tenantId: string, parent: string): Promise<string> {
    const id = await brokerIdOf(db, tenantId, parent);
    if (id === undefined) throw invalid(`parent ${parent} is not a broker of this tenant`);
    return id;
  }

  private async newParentId(
    db: EntityManager,
    tenantId: string,
    broker: BrokerRow,
    number: string,
    parent: string | null,
  ): Promise<string | null> {
    if (parent === null) return null;
    const parentId = await this.parentIdOf(db, tenantId, parent);
    if (await isAtOrBelow(db, tenantId, broker.id, parentId))
      throw invalid(`parent ${parent} is ${number} itself or below it: the move would make a cycle`);
    return parentId;
  }
}
