export {
  checkoutDatabaseName,
  checkoutName,
  checkoutRedisPrefixes,
  DATABASE_NAME,
} from './checkout-names.js';
export { resolvePostgres, startPrivatePostgres } from './postgres.js';
export { findFreePort, stopChild } from './process-tools.js';
export { resolveRedis, startPrivateRedis } from './redis.js';
export { type LocalServices, redactUrl, resolveServices } from './services.js';
export type { ResolveOptions, RestartableService, ServiceHandle, ServiceSource } from './types.js';
export { findWorkspaceRoot } from './workspace.js';
