/** An API client of area C as the authentication needs it: its broker, its state and its key in clear text. */
export interface ApiClientCredentials {
  apiClientId: string;
  tenantId: string;
  brokerId: string;
  brokerNumber: string;
  apiKey: string;
  clientBlocked: boolean;
  brokerBlocked: boolean;
}

/** Looks up an API client by tenant code and API id (the key decrypted); undefined when there is none. */
export interface ApiClientDirectory {
  find(tenantCode: string, apiId: string): Promise<ApiClientCredentials | undefined>;
}

export const API_CLIENT_DIRECTORY = Symbol('API_CLIENT_DIRECTORY');
