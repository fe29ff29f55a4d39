import type { DataSource, EntityManager } from 'typeorm';
import type { AuditActorKind, AuditEventPage, AuditEventView } from '@broker/contracts';
import { utc } from './sql.js';

/** Who writes: an operator, a tenant administrator, an API client of area C, or the platform's own tooling. */
export interface AuditActor {
  kind: Exclude<AuditActorKind, 'customer'>;
  /** The token's subject, the API id, or the tool's name. */
  subject: string;
  /** The OAuth client the token was issued to, if any. */
  client: string | null;
  /** The client address the request came from, if any. */
  address?: string | null;
}

/**
 * How a write is made: by whom, under which operation (its operationId, recorded as the audit event's action; each
 * use case has the administration API's own as its default), and inside which transaction (a caller's own, e.g.
 * area C's, where it checked what the caller may see), else one of its own.
 */
export interface WriteContext {
  actor: AuditActor;
  operation?: string;
  tx?: EntityManager;
}

/** One audited write: what it changed, never a secret (a password or key is only named as changed). */
export interface AuditedWrite {
  tenantId: string;
  action: string;
  /** A path below the tenant: `brokers/V1000`, `api-clients/portal-1`. */
  target: string;
  changes: Record<string, unknown>;
}

/** Appends the audit event of a write, in the write's own transaction. */
export async function recordAuditEvent(
  db: EntityManager,
  actor: AuditActor,
  write: AuditedWrite,
): Promise<void> {
  await db.query(
    `INSERT INTO broker.audit_event (tenant_id, action, actor_kind, actor, actor_client, client_address, target, details)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      write.tenantId,
      write.action,
      actor.kind,
      actor.subject,
      actor.client,
      actor.address ?? null,
      write.target,
      write.changes,
    ],
  );
}

/**
 * Runs `work` in the context's transaction, or in a transaction of its own. A use case's writes and its audit event
 * commit together or not at all.
 */
export function inTransaction<T>(
  db: DataSource,
  context: WriteContext,
  work: (tx: EntityManager) => Promise<T>,
): Promise<T> {
  return context.tx ? work(context.tx) : db.transaction(work);
}

export interface AuditEventFilter {
  actor?: string;
  action?: string;
  /** A target, or every target below it when it ends with `/`. */
  target?: string;
  /** RFC 3339 times: at or after `from`, before `to`. */
  from?: string;
  to?: string;
  /** The id of the last event of the page before. */
  cursor?: string;
  limit: number;
}

/** The audit trail of a tenant: the administration's writes and the customers' own events, newest first. */
export async function listAuditEvents(
  db: DataSource,
  tenantId: string,
  filter: AuditEventFilter,
): Promise<AuditEventPage> {
  const conditions = ['tenant_id = $1'];
  const parameters: unknown[] = [tenantId];
  const where = (condition: (position: string) => string, value: unknown) => {
    parameters.push(value);
    conditions.push(condition(`$${parameters.length}`));
  };
  if (filter.actor !== undefined) where((p) => `actor = ${p}`, filter.actor);
  if (filter.action !== undefined) where((p) => `action = ${p}`, filter.action);
  if (filter.target?.endsWith('/')) where((p) => `starts_with(target, ${p})`, filter.target);
  else if (filter.target !== undefined) where((p) => `target = ${p}`, filter.target);
  if (filter.from !== undefined) where((p) => `occurred_at >= ${p}::timestamptz`, filter.from);
  if (filter.to !== undefined) where((p) => `occurred_at < ${p}::timestamptz`, filter.to);
  if (filter.cursor !== undefined) where((p) => `id < ${p}::bigint`, filter.cursor);
  parameters.push(filter.limit + 1);
  const rows = await db.query<AuditEventView[]>(
    `SELECT id::text, ${utc('occurred_at')} AS time,
            json_build_object('kind', actor_kind, 'subject', actor, 'client', actor_client) AS actor,
            action, target, details AS changes
       FROM broker.audit_event WHERE ${conditions.join(' AND ')}
      ORDER BY audit_event.id DESC LIMIT $${parameters.length}`,
    parameters,
  );
  const items = rows.slice(0, filter.limit);
  return { items, next_cursor: rows.length > filter.limit ? (items.at(-1)?.id ?? null) : null };
}
