export * from './redaction.js';
export * from './probe-paths.js';
export * from './tracing.js';
export * from './trace-context.js';
export * from './queue-telemetry.js';
export * from './tracing-settings.js';
