export * from './api-key-cipher.js';
export * from './oauth/oauth-token-verifier.js';
export * from './oauth/oauth-bearer.guard.js';
