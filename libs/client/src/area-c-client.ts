import createClient, { type Client } from 'openapi-fetch';
import { type FetchFunction, globalFetch } from './fetch-function.js';
import type { paths as BrokerPaths } from './generated/broker-api.js';
import type { paths as EmployeePaths } from './generated/employee-api.js';
import { type ApiCredentials, HeaderGroupSigner } from './header-group.js';
import { MultiCallBatcher } from './multi-call-batcher.js';
import { RevalidationCache } from './revalidation-cache.js';

export interface AreaCClientOptions extends ApiCredentials {
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
  fetch?: FetchFunction;
}

/**
 * The request path of area C: the revalidation cache, then the batcher, then the header group on what goes out
 * (a batch is signed once; its parts run as its caller).
 */
function areaCFetch(options: AreaCClientOptions): FetchFunction {
  const baseUrl = options.baseUrl.replace(/\/$/, '');
  let send = new HeaderGroupSigner(options, options.now).fetch(options.fetch ?? globalFetch);
  if (options.batch ?? true) send = new MultiCallBatcher(baseUrl, options.maxParts).fetch(send);
  if (options.cache ?? true) send = new RevalidationCache().fetch(send);
  return send;
}

/** A client of the employee service (area C): customers, addresses, contacts, contracts, search, details, lists. */
export function createEmployeeClient(options: AreaCClientOptions): Client<EmployeePaths> {
  return createClient<EmployeePaths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    fetch: areaCFetch(options),
  });
}

/** A client of the broker service (area C): sub-broker editing and the broker's lists. */
export function createBrokerClient(options: AreaCClientOptions): Client<BrokerPaths> {
  return createClient<BrokerPaths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    fetch: areaCFetch(options),
  });
}
