export * from './import-process.js';
export * from './import-requests.js';
