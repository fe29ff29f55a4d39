import type { EntityManager } from 'typeorm';

/**
 * A transaction that writes a customer in several statements (its row, then its addresses or contacts) defers the
 * customer's search document and writes it once at the end with `refreshCustomerSearch`, instead of once per
 * statement (the setting `broker.search_refresh` of migration CustomerSearchByBroker1763700000013): one document
 * version and one set of index keys per transaction, not a dead one per statement. Transaction-local; a change of
 * broker and a deletion still refresh at once, so no broker finds another's customer even for a moment.
 */
export async function deferSearchRefresh(db: EntityManager): Promise<void> {
  await db.query("SELECT set_config('broker.search_refresh', 'deferred', true)");
}

/** Brings the search documents of the given customers up to date as this transaction sees them. */
export async function refreshCustomerSearch(db: EntityManager, customerIds: string[]): Promise<void> {
  await db.query('SELECT broker.customer_search_refresh($1::bigint[])', [customerIds]);
}
