import type { EntityManager } from 'typeorm';
import type { PageInfo } from '@broker/contracts';

export interface PageRequest {
  offset: number;
  limit: number;
}

/**
 * One page of a list: `select` is the query of the items without ORDER BY, LIMIT and OFFSET; the same rows are
 * counted for the total. `parameters` are the query's own; the page's come after them.
 */
export async function pageOf<Item>(
  db: EntityManager,
  query: { select: string; from: string; orderBy: string; parameters: unknown[] },
  page: PageRequest,
): Promise<PageInfo & { items: Item[] }> {
  const { select, from, orderBy, parameters } = query;
  const next = parameters.length;
  const items = await db.query<Item[]>(
    `SELECT ${select} FROM ${from} ORDER BY ${orderBy} LIMIT $${next + 1} OFFSET $${next + 2}`,
    [...parameters, page.limit, page.offset],
  );
  const [{ total }] = await db.query<{ total: number }[]>(
    `SELECT count(*)::int AS total FROM ${from}`,
    parameters,
  );
  return { items, total, offset: page.offset, limit: page.limit };
}
