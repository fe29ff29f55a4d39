export * from './import-process.js';
export * from './import-requests.js';
export * from './area-c/index.js';
