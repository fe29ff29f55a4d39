export * from './api-key-cipher.js';
