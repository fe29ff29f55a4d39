export * from './test-env.js';
export * from './test-database.js';
export * from './test-redis.js';
export * from './error-probe.js';
export * from './error-shape-suite.js';
export * from './test-authorization-server.js';
export * from './test-import-environment.js';
export * from './inventory-fixture.js';
