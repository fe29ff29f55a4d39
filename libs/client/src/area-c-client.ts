import createClient, { type Client } from 'openapi-fetch';
import { must } from './api-error.js';
import { type FetchFunction, globalFetch } from './fetch-function.js';
import type { paths as BrokerPaths } from './generated/broker-api.js';
import type { components as EmployeeComponents, paths as EmployeePaths } from './generated/employee-api.js';
import { type ApiCredentials, HeaderGroupSigner } from './header-group.js';
import { MultiCallBatcher } from './multi-call-batcher.js';
import { type Paged, paged, totalOf } from './paging.js';
import { RevalidationCache } from './revalidation-cache.js';
import { type TransportOptions, transportFetch } from './transport.js';

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
 * The request path of area C: the revalidation cache, then the batcher, then the timeout and retries, then the
 * header group on what goes out (a batch is signed once; its parts run as its caller; a repeat is signed anew).
 */
function areaCFetch(options: AreaCClientOptions): FetchFunction {
  const baseUrl = options.baseUrl.replace(/\/$/, '');
  let send = new HeaderGroupSigner(options, options.now).fetch(options.fetch ?? globalFetch);
  send = transportFetch(send, options);
  if (options.batch ?? true) send = new MultiCallBatcher(baseUrl, options.maxParts).fetch(send);
  if (options.cache ?? true) send = new RevalidationCache().fetch(send);
  return send;
}

/** A client of the employee service (area C): customers, addresses, contacts, contracts, search, details, lists. */
export function createEmployeeClient(options: AreaCClientOptions): EmployeeClient {
  const api = createClient<EmployeePaths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    fetch: areaCFetch(options),
  });
  return {
    api,
    searchCustomers: (ma, q, { pageSize = 50 } = {}) =>
      paged(pageSize, async (from, size) => {
        const call = api.GET('/{ma}/kunden/_search', { params: { path: { ma }, query: { q, from, size } } });
        const items = await must(call);
        return { items, total: totalOf((await call).response, 'X-Svc-Total') };
      }),
  };
}

/** A client of the broker service (area C): sub-broker editing and the broker's lists. */
export function createBrokerClient(options: AreaCClientOptions): BrokerClient {
  return {
    api: createClient<BrokerPaths>({
      baseUrl: options.baseUrl.replace(/\/$/, ''),
      fetch: areaCFetch(options),
    }),
  };
}
