import createClient, { type Client } from 'openapi-fetch';
import { type FetchFunction, globalFetch } from './fetch-function.js';
import type { paths as BrokerPaths } from './generated/broker-api.js';
import type { components as EmployeeComponents, paths as EmployeePaths } from './generated/employee-api.js';
import { type ApiCredentials, HeaderGroupSigner } from './header-group.js';
import { MultiCallBatcher } from './multi-call-batcher.js';
import { type Paged, pagedCall } from './paging.js';
import { RevalidationCache } from './revalidation-cache.js';
import { retryingFetch, timedFetch, type TransportOptions } from './transport.js';

export interface AreaCClientOptions extends ApiCredentials, TransportOptions {
  /**
   * The interface's base: `https://gateway.example.com/service/{tenant}/employee/1.0/rest` for the employee
   * service, `.../service/{tenant}/broker/1.0/rest` for the broker service.
   */
  baseUrl: string;
  /** Calls of the same tick as one multi-call (default true). */
  batch?: boolean;
  /** Parts per multi-call at most: the service's MULTICALL_MAX_PARTS (default 100). */
  maxParts?: number;
  /** Keep answers with Last-Modified and revalidate them (default true). */
  cache?: boolean;
  /** The local clock; the signer corrects it by the server's `Date`. */
  now?: () => number;
}

export type KundenSuchErgebnis = EmployeeComponents['schemas']['KundenSuchErgebnis'];

export interface EmployeeClient {
  /** The typed client of every operation of the employee document. */
  api: Client<EmployeePaths>;
  /**
   * searchKunden, a page at a time as the hits are iterated (`pageSize` per call, default 50); `pages()` gives each
   * page with the total of all hits (X-Svc-Total).
   */
  searchCustomers(ma: string, q: string, options?: { pageSize?: number }): Paged<KundenSuchErgebnis>;
}

export interface BrokerClient {
  /** The typed client of every operation of the broker document. */
  api: Client<BrokerPaths>;
}

/**
 * The request path of area C: the revalidation cache, then the retries (of each call, so a part answered 503 is
 * repeated as well as a batch refused as a whole), then the batcher, then the timeout of what goes out, then the
 * header group (a batch is signed once; its parts run as its caller; a repeat is signed anew).
 */
function areaCFetch(baseUrl: string, options: AreaCClientOptions): FetchFunction {
  let send = new HeaderGroupSigner(options, options.now).fetch(options.fetch ?? globalFetch);
  send = timedFetch(send, options);
  if (options.batch ?? true) send = new MultiCallBatcher(baseUrl, options.maxParts).fetch(send);
  send = retryingFetch(send, options);
  if (options.cache ?? true) send = new RevalidationCache().fetch(send);
  return send;
}

/** A client of the employee service (area C): customers, addresses, contacts, contracts, search, details, lists. */
export function createEmployeeClient(options: AreaCClientOptions): EmployeeClient {
  const baseUrl = options.baseUrl.replace(/\/$/, '');
  const api = createClient<EmployeePaths>({ baseUrl, fetch: areaCFetch(baseUrl, options) });
  return {
    api,
    searchCustomers: (ma, q, { pageSize = 50 } = {}) =>
      pagedCall(pageSize, 'X-Svc-Total', (from, size) =>
        api.GET('/{ma}/kunden/_search', { params: { path: { ma }, query: { q, from, size } } }),
      ),
  };
}

/** A client of the broker service (area C): sub-broker editing and the broker's lists. */
export function createBrokerClient(options: AreaCClientOptions): BrokerClient {
  const baseUrl = options.baseUrl.replace(/\/$/, '');
  return { api: createClient<BrokerPaths>({ baseUrl, fetch: areaCFetch(baseUrl, options) }) };
}
