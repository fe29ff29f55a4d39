export * from './calculate.js';
export * from './catalog.js';
export * from './catalog-schema.js';
export * from './catalog-types.js';
export * from './occupations.js';
export * from './payment-mode.js';
export * from './request.js';
export * from './result.js';
