import createClient, { type Client } from 'openapi-fetch';
import { BrokerApiError } from './api-error.js';
import { bearerFetch } from './bearer.js';
import { type BearerAuth, bearerTokens } from './client-credentials.js';
import { globalFetch } from './fetch-function.js';
import type { components, paths } from './generated/admin-api.js';
import { retryingFetch, timedFetch, type TransportOptions, transportFetch } from './transport.js';

/** The administration document's operations and schemas, for typed clients of its own (the operator console). */
export type AdminPaths = paths;
export type AdminSchemas = components['schemas'];
export type MasterDataKind = components['schemas']['MasterDataKind'];
export type MasterDataResult = components['schemas']['MasterDataResult'];

export interface AdminClientOptions extends TransportOptions {
  /** The administration service's base, e.g. `https://gateway.example.com/admin/v1`. */
  baseUrl: string;
  /**
   * How the client gets its access token (scope platform.operator or platform.admin): a token as it is, a function
   * answering one, or OAuth 2.0 client credentials (`scope` default platform.operator).
   */
  auth: BearerAuth;
}

export interface AdminClient {
  /** The typed client of every operation of the administration document. */
  api: Client<paths>;
  /**
   * importMasterData: a CSV file of brokers, employees, insurers or agreements. Answers the counts, and `errors`
   * (every bad line; then nothing was written) when the service refused the file with 422.
   */
  importMasterData(
    tenant: string,
    kind: MasterDataKind,
    csv: string,
    options?: { dryRun?: boolean },
  ): Promise<MasterDataResult>;
}

/** A client of the administration service (beyond the spec), for operators' scripts, the CLI and consoles. */
export function createAdminClient(options: AdminClientOptions): AdminClient {
  const send = options.fetch ?? globalFetch;
  const baseUrl = options.baseUrl.replace(/\/$/, '');
  const authorized = bearerFetch(
    bearerTokens(options.auth, 'platform.operator', timedFetch(send, options)),
    send,
    true,
  );
  const api = createClient<paths>({ baseUrl, fetch: transportFetch(authorized, options) });
  // A master-data file takes as long as its size: no timeout (its import is one transaction, so never half done).
  const fileCalls = createClient<paths>({ baseUrl, fetch: retryingFetch(authorized, options) });
  return {
    api,
    async importMasterData(tenant, kind, csv, { dryRun = false } = {}) {
      const { data, error, response } = await fileCalls.POST('/tenants/{tenant}/master-data/{kind}', {
        params: { path: { tenant, kind }, query: { dry_run: dryRun ? 'true' : 'false' } },
        body: csv,
        bodySerializer: (body: string) => body,
        headers: { 'Content-Type': 'text/csv; charset=utf-8' },
      });
      if (data) return data;
      if (response.status === 422) return error as MasterDataResult;
      throw new BrokerApiError(response.status, error, response);
    },
  };
}
