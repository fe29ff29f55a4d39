import type { Client } from 'pg';
import { type BrokerOf, prng, weighted } from './synthetic-customers.js';

/**
 * A tenant shaped like a broker pool: many brokers of skewed sizes, a fifth of them with sub-brokers. The pool
 * grows in layers: the layer for the customers from..to-1 adds its own brokers (one per 400 of its customers) and
 * gives them all of its customers, so the brokers of earlier layers keep exactly the customers they had. A layer
 * alone (from = 0) has the whole shape: at 2,000,000 customers 5,000 brokers, the largest with 150,000
 * customers, the median about 100, most between 10 and 2,000.
 */

const CUSTOMERS_PER_BROKER = 400;
/**
 * The large brokers' shares of all customers up to the layer's end (150,000, 100,000, 80,000, 60,000 and 50,000
 * of 2,000,000); each is the top of a hierarchy with sub-brokers.
 */
const LARGE_SHARES = [0.075, 0.05, 0.04, 0.03, 0.025];
/** The other brokers' sizes: log-normal around this median, about 2 % above 2,000, cut to the limits below. */
const SMALL_MEDIAN = 100;
const SMALL_LOG_SPREAD = 1.5;
const SMALL_LIMITS = { low: 10, high: 20_000 };
/** The share of brokers with sub-brokers, and of those, the share that are sub-brokers themselves. */
const PARENT_SHARE = 0.2;
const NESTED_PARENT_SHARE = 0.3;
/** Sub-brokers nest at most this deep below their top broker. */
const MAX_DEPTH = 3;
/** Sub-brokers each large broker has beyond its first, per 1,000 brokers of the layer. */
const LARGE_SUB_BROKERS_PER_1000 = 10;
/** Of the brokers without sub-brokers that are left over, the share that are somebody's sub-broker. */
const LOOSE_SUB_BROKER_SHARE = 0.25;

export interface PoolBroker {
  number: string;
  parent: string | null;
  /** About how many of the layer's customers it gets. */
  weight: number;
}

/** A size of the log-normal spread (Box-Muller), within the limits. */
function smallSize(random: () => number): number {
  const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const size = SMALL_MEDIAN * Math.exp(SMALL_LOG_SPREAD * normal);
  return Math.min(SMALL_LIMITS.high, Math.max(SMALL_LIMITS.low, size));
}

/** The expected customers of each broker of the layer: the large ones first, then the small ones. */
function layerWeights(from: number, to: number, count: number, random: () => number): number[] {
  const large = LARGE_SHARES.map((share) => share * to);
  const largeTotal = large.reduce((sum, size) => sum + size, 0);
  if (largeTotal > (to - from) / 2)
    throw new Error(
      `pool sizes ${from} and ${to} are too close: the large brokers would get most of the layer`,
    );
  const small = Array.from({ length: count - large.length }, () => smallSize(random));
  const scale = (to - from - largeTotal) / small.reduce((sum, size) => sum + size, 0);
  return [...large, ...small.map((size) => size * scale)];
}

/**
 * The parent index of each broker (undefined for a top broker). Brokers 0..parents-1 have sub-brokers: the large
 * ones are tops, the others tops or sub-brokers of an earlier one; every one gets a first sub-broker, the large
 * ones more, and some of the remaining brokers are sub-brokers of a random parent.
 */
function layerParents(count: number, random: () => number): (number | undefined)[] {
  const parentCount = Math.max(LARGE_SHARES.length, Math.round(count * PARENT_SHARE));
  const parentOf: (number | undefined)[] = Array.from({ length: count }, () => undefined);
  const depth = Array.from({ length: count }, () => 0);
  const attach = (child: number, parent: number) => {
    parentOf[child] = parent;
    depth[child] = (depth[parent] ?? 0) + 1;
  };
  /** A random earlier parent whose sub-brokers may have sub-brokers up to MAX_DEPTH. */
  const nestingParent = (before: number, childLevels: number) => {
    const candidates = Array.from({ length: before }, (_, index) => index).filter(
      (index) => (depth[index] ?? 0) + childLevels <= MAX_DEPTH,
    );
    return candidates[Math.floor(random() * candidates.length)] ?? 0;
  };
  for (let parent = LARGE_SHARES.length; parent < parentCount; parent += 1)
    if (random() < NESTED_PARENT_SHARE) attach(parent, nestingParent(parent, 2));
  let next = parentCount;
  for (let parent = 0; parent < parentCount && next < count; parent += 1) attach(next++, parent);
  const largeExtra = Math.round((count * LARGE_SUB_BROKERS_PER_1000) / 1000);
  for (let large = 0; large < LARGE_SHARES.length; large += 1)
    for (let sub = 0; sub < largeExtra && next < count; sub += 1) attach(next++, large);
  for (; next < count; next += 1)
    if (random() < LOOSE_SUB_BROKER_SHARE) attach(next, nestingParent(parentCount, 1));
  return parentOf;
}

/** The brokers of layer `layer` (1, 2, ...), which gets the customers from..to-1; deterministic. */
export function poolLayer(layer: number, from: number, to: number): PoolBroker[] {
  const random = prng(layer * 7_919);
  const count = Math.max(2 * LARGE_SHARES.length, Math.round((to - from) / CUSTOMERS_PER_BROKER));
  const weights = layerWeights(from, to, count, random);
  const parents = layerParents(count, random);
  const number = (index: number) => `P${layer}-${String(index).padStart(5, '0')}`;
  return weights.map((weight, index) => {
    const parent = parents[index];
    return { number: number(index), parent: parent === undefined ? null : number(parent), weight };
  });
}

/** Which broker of the layer a customer's draw gives: by the brokers' weights. */
export const layerBrokerOf = (brokers: PoolBroker[]): BrokerOf =>
  weighted(brokers.map((broker): [string, number] => [broker.number, broker.weight]));

/** Inserts the layer's brokers into the tenant, then links them to their parents; their ids by number. */
export async function insertPoolLayer(
  db: Client,
  tenantId: string,
  brokers: PoolBroker[],
): Promise<Record<string, string>> {
  const { rows } = await db.query<{ id: string; number: string }>(
    `INSERT INTO broker.broker (tenant_id, broker_number, name)
     SELECT $1, number, 'Poolmakler ' || number FROM unnest($2::text[]) AS number
     RETURNING id::text, broker_number AS number`,
    [tenantId, brokers.map((broker) => broker.number)],
  );
  const children = brokers.filter((broker) => broker.parent !== null);
  await db.query(
    `UPDATE broker.broker b SET parent_id = p.id
       FROM unnest($2::text[], $3::text[]) AS link(child, parent)
       JOIN broker.broker p ON p.tenant_id = $1 AND p.broker_number = link.parent
      WHERE b.tenant_id = $1 AND b.broker_number = link.child`,
    [tenantId, children.map((broker) => broker.number), children.map((broker) => broker.parent)],
  );
  return Object.fromEntries(rows.map((row) => [row.number, row.id]));
}
