export * from './enumerations.js';
export * from './customer.dto.js';
export * from './address.dto.js';
export * from './detail.dto.js';
export * from './signature-link.dto.js';
export * from './search.dto.js';
export * from './contact-patterns.js';
export * from './sub-broker.dto.js';
