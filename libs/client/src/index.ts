export {
  type ApiErrorView,
  BrokerApiError,
  isApiErrorViewError,
  isMeldungenError,
  type Meldungen,
  must,
} from './api-error.js';
export {
  type AdminClient,
  type AdminClientOptions,
  type AdminPaths,
  type AdminSchemas,
  createAdminClient,
  type MasterDataKind,
  type MasterDataResult,
} from './admin-client.js';
export {
  type AreaCClientOptions,
  type BrokerClient,
  createBrokerClient,
  createEmployeeClient,
  type EmployeeClient,
  type KundenSuchErgebnis,
} from './area-c-client.js';
export {
  type CalcClient,
  type CalcClientOptions,
  createCalcClient,
  type PrivateLiabilityCalculationRequest,
  type PrivateLiabilityCalculationResponse,
} from './calc-client.js';
export {
  type BearerAuth,
  type ClientCredentials,
  ClientCredentialsTokens,
  TokenRequestError,
} from './client-credentials.js';
export type { FetchFunction } from './fetch-function.js';
export type { ApiCredentials } from './header-group.js';
export {
  createImportClient,
  type ImportClient,
  type ImportDryRunReport,
  type ImportDryRunStarted,
  type ImportClientOptions,
  type ImportFile,
  type ImportProcessReport,
  type ImportProcessView,
  type ImportStatus,
  type UploadOptions,
  type WaitOptions,
  type WebhookAttemptView,
  type WebhookEndpointCreated,
  type WebhookEndpointView,
  type WebhookEventType,
  type WebhookHelpers,
} from './import-client.js';
export { type Page, type Paged } from './paging.js';
export { type RetryEvent, type RetryOptions, type TransportOptions } from './transport.js';
export { type EventsOptions, type ImportEvent, type ImportProcessEvent } from './import-events.js';
export { type ImportWebhookEvent, verifyImportWebhook } from './webhook-verifier.js';
export type * as AdminApi from './generated/admin-api.js';
export type * as BrokerApi from './generated/broker-api.js';
export type * as CalcApi from './generated/calc-api.js';
export type * as EmployeeApi from './generated/employee-api.js';
export type * as ImportApi from './generated/import-api.js';
