import { env, loadConfig, z } from '@broker/config';

/** The samplers OTEL_TRACES_SAMPLER names that the SDK builds from the environment alone. */
const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/** OTLP over HTTP only: the collector's port 4318 speaks both; gRPC is not shipped. */
const PROTOCOLS = ['http/protobuf', 'http/json'] as const;

/** A number from 0 to 1 written as a plain decimal (`0.1`, `.5`, `1`). */
export const DECIMAL_FRACTION = /^(\d+\.?\d*|\.\d+)$/;

const protocol = () =>
  z.enum(PROTOCOLS, { error: `must be ${PROTOCOLS.join(' or ')} (OTLP over HTTP)` }).optional();

/**
 * The standard OpenTelemetry variables this platform reads (the SDK reads them itself; they are checked here so
 * that a mistyped one stops the process at boot instead of silently tracing nothing).
 */
const TRACING_VARIABLES = {
  OTEL_SDK_DISABLED: env.flag(false),
  OTEL_TRACES_EXPORTER: z.enum(['otlp', 'none'], { error: 'must be otlp or none' }).optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: env.httpUrl(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: env.httpUrl(),
  OTEL_EXPORTER_OTLP_PROTOCOL: protocol(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol(),
  OTEL_SERVICE_NAME: env.optionalText(),
  OTEL_TRACES_SAMPLER: z.enum(SAMPLERS, { error: `must be one of ${SAMPLERS.join(', ')}` }).optional(),
  // Plain decimals only, as the gateway reads the same variable (tools/dev/src/gateway-config.ts, traceSampling).
  OTEL_TRACES_SAMPLER_ARG: z
    .string()
    .regex(DECIMAL_FRACTION, 'must be a number from 0 to 1')
    .refine((value) => Number(value) <= 1, 'must be a number from 0 to 1')
    .optional(),
};

export interface TracingSettings {
  /** Whether spans are recorded and exported at all: only with an endpoint to send them to. */
  enabled: boolean;
  serviceName: string;
}

/**
 * Tracing as the environment configures it; a bad variable stops the process (exit 78) with one line naming it.
 * Off unless OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set (and neither
 * OTEL_SDK_DISABLED nor OTEL_TRACES_EXPORTER=none says otherwise).
 */
export function loadTracingSettings(defaultServiceName: string): TracingSettings {
  const variables = loadConfig(TRACING_VARIABLES);
  const endpoint = variables.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? variables.OTEL_EXPORTER_OTLP_ENDPOINT;
  return {
    enabled:
      endpoint !== undefined && !variables.OTEL_SDK_DISABLED && variables.OTEL_TRACES_EXPORTER !== 'none',
    serviceName: variables.OTEL_SERVICE_NAME ?? defaultServiceName,
  };
}
