import { setTimeout as delay } from 'node:timers/promises';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import { loadTracingSettings } from './tracing-settings.js';

type TracingSdk = typeof import('./tracing-sdk.js');

/** How long a clean stop waits for the last spans to be exported. */
const FINAL_EXPORT_MS = 5_000;

let tracingSdk: TracingSdk | undefined;
let sdk: NodeSDK | undefined;

/**
 * Starts the OpenTelemetry Node SDK for this process when the environment asks for traces (loadTracingSettings).
 * Must run before the instrumented modules (http, express, pg, ioredis, pino, undici) are first loaded: each
 * entry point imports its `tracing.ts` first. Without an endpoint nothing is loaded or registered: no span, no
 * context propagation, no log field.
 */
export function startTracing(defaultServiceName: string): void {
  const settings = loadTracingSettings(defaultServiceName);
  if (!settings.enabled || sdk) return;
  // Loaded only now: the SDK and its instrumentations take 0.3 s and 50 MB to load, which a process without
  // tracing does not pay.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  tracingSdk = require('./tracing-sdk.js') as TracingSdk;
  sdk = tracingSdk.startSdk(settings.serviceName);
}

/** Whether this process records and exports spans. */
export function tracingEnabled(): boolean {
  return sdk !== undefined;
}

/** Names the active HTTP server span after the route a handler matched; nothing while tracing is off. */
export function nameHttpRoute(route: string): void {
  tracingSdk?.setHttpRoute(route);
}

/** Exports the spans still waiting and stops tracing; the last step of a clean shutdown. */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  if (!running) return;
  // A collector that does not answer must not hold the stop up to the exporter's own timeout (30 s).
  await Promise.race([running.shutdown(), delay(FINAL_EXPORT_MS, undefined, { ref: false })]);
}
