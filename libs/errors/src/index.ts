export * from './error-code.js';
export * from './domain-error.js';
export * from './overload.js';
export * from './validation.js';
export * from './area-exception-filter.js';
export * from './response-marks.js';
