export * from './admin-views.js';
export * from './admin-requests.js';
export * from './operations-views.js';
