export * from './import-process.js';
export * from './import-requests.js';
export * from './area-c/index.js';
export * from './area-b/index.js';
export * from './api-error.dto.js';
export * from './response-schemas.js';
export * from './openapi-null.js';
export * from './admin/index.js';
