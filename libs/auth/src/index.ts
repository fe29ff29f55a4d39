export * from './api-key-cipher.js';
export * from './oauth/oauth-token-verifier.js';
export * from './oauth/oauth-bearer.guard.js';
export * from './header-group/api-client-directory.js';
export * from './header-group/nonce-store.js';
export * from './header-group/header-group-verifier.js';
export * from './header-group/header-group.guard.js';
