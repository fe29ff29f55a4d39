/** An employee of the API client's broker by its code (`{ma}`): `id` null when the broker has none of that code. */
export interface ClientEmployee {
  code: string;
  id: string | null;
  blocked: boolean;
}

/** An API client of area C as the authentication needs it: its broker, its state and its key in clear text. */
export interface ApiClientCredentials {
  apiClientId: string;
  tenantId: string;
  brokerId: string;
  brokerNumber: string;
  apiKey: string;
  /** The key a rotation replaced, accepted beside `apiKey` until `validUntil`. */
  previousKey?: { apiKey: string; validUntil: Date };
  clientBlocked: boolean;
  brokerBlocked: boolean;
  /** The employee asked for, if one was. */
  employee?: ClientEmployee;
}

/**
 * Looks up an API client by tenant code and API id (the key decrypted); undefined when there is none. With
 * `employeeCode`, also its broker's employee of that code, in the same round trip.
 */
export interface ApiClientDirectory {
  find(tenantCode: string, apiId: string, employeeCode?: string): Promise<ApiClientCredentials | undefined>;
}

export const API_CLIENT_DIRECTORY = Symbol('API_CLIENT_DIRECTORY');
