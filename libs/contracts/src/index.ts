export * from './import-process.js';
