export * from './data-source.js';
export * from './migrator.js';
export * from './migrate-database.js';
export * from './naming-strategy.js';
export * from './prepared-statement.js';
export * from './column-transformers.js';
export { allMigrations } from './migrations/index.js';
export * from './database-unavailable.js';
