import { readFileSync } from 'node:fs';
import path from 'node:path';
import { findWorkspaceRoot } from '@broker/local-services';
import { DECIMAL_FRACTION } from '@broker/telemetry';

/** The gateway's nginx configuration template (deploy/gateway). */
export const GATEWAY_TEMPLATE = path.join(findWorkspaceRoot(__dirname), 'deploy/gateway/nginx.conf.template');

/** What the template needs, by name. */
export interface GatewaySettings {
  GATEWAY_PORT: string;
  /** Directory for the pid file and nginx's temporary files. */
  GATEWAY_STATE_DIR: string;
  GATEWAY_ACCESS_LOG: string;
  GATEWAY_RATE_PER_SECOND: string;
  GATEWAY_RATE_BURST: string;
  /** Every request body but uploads (multi-calls up to MULTICALL_MAX_REQUEST_BYTES). */
  GATEWAY_MAX_BODY_BYTES: string;
  /** Uploads: IMPORT_MAX_UPLOAD_BYTES plus room for the multipart framing and form fields. */
  GATEWAY_MAX_UPLOAD_BYTES: string;
  /** The administration's bodies (master-data files): ADMIN_MASTER_DATA_MAX_BYTES. */
  GATEWAY_MAX_ADMIN_BODY_BYTES: string;
  IMPORT_UPSTREAM: string;
  CALC_UPSTREAM: string;
  BROKER_UPSTREAM: string;
  ADMIN_UPSTREAM: string;
  /** The geo entries of the addresses /admin/ answers (adminAllowedGeo of ADMIN_ALLOWED_CIDRS). */
  ADMIN_ALLOWED_GEO: string;
  /** The split_clients entries that sample the traces the gateway starts (traceSampling). */
  GATEWAY_TRACE_SAMPLING: string;
  IMPORT_HOST: string;
  CALC_HOST: string;
  BROKER_HOST: string;
}

/** ADMIN_MASTER_DATA_MAX_BYTES's default: the gateway lets master-data files of that size through. */
export const ADMIN_MAX_BODY_BYTES = 16 * 1024 * 1024;

/** An IPv4 or IPv6 address or range, as nginx's geo block takes it. */
const CIDR = /^(\d{1,3}(\.\d{1,3}){3}|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)(\/\d{1,3})?$/;

/**
 * ADMIN_ALLOWED_CIDRS (address ranges separated by commas or blanks, or `any`) as the entries of the gateway's geo
 * block. Empty is an error, as a value that is no range: an unset variable must not open /admin/ to everyone. What
 * the gateway image's deploy/gateway/15-admin-allowed-cidrs.envsh does with the variable in compose and Kubernetes.
 */
export function adminAllowedGeo(allowedCidrs: string): string {
  const cidrs = allowedCidrs.split(/[\s,]+/).filter(Boolean);
  if (cidrs.includes('any')) return 'default 1;';
  if (cidrs.length === 0)
    throw new Error('ADMIN_ALLOWED_CIDRS is empty: name the address ranges that may reach /admin/, or any');
  const invalid = cidrs.filter((cidr) => !CIDR.test(cidr));
  if (invalid.length > 0)
    throw new Error(`ADMIN_ALLOWED_CIDRS: ${invalid.join(', ')} is not an address range`);
  return ['default 0;', ...cidrs.map((cidr) => `${cidr} 1;`)].join(' ');
}

/**
 * The share of the traces the gateway starts (requests without a traceparent) that are sampled, as split_clients
 * entries, from the services' OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG: the gateway is the root of those
 * traces, so a parent-based sampler counts as its base. What deploy/gateway/16-trace-sampling.envsh does in compose
 * and Kubernetes. (split_clients refuses a share of 0 %, hence the `*` forms at either end.)
 */
export function traceSampling(sampler = '', argument = ''): string {
  const base = (sampler || 'parentbased_always_on').replace(/^parentbased_/, '');
  if (base === 'always_on') return '* 01;';
  if (base === 'always_off') return '* 00;';
  if (base !== 'traceidratio')
    throw new Error(`OTEL_TRACES_SAMPLER: ${sampler} is not a sampler the gateway knows`);
  const ratio = argument === '' ? 1 : Number(argument);
  if (!DECIMAL_FRACTION.test(argument || '1') || ratio > 1)
    throw new Error('OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1');
  const percent = Math.round(ratio * 10_000) / 100;
  if (percent >= 100) return '* 01;';
  if (percent <= 0) return '* 00;';
  return `${percent}% 01; * 00;`;
}

/** Who reaches /admin/ through a gateway on this machine when ADMIN_ALLOWED_CIDRS is not set: this machine. */
export const LOCAL_ADMIN_ALLOWED_CIDRS = '127.0.0.0/8, ::1';

/** The room the gateway adds to IMPORT_MAX_UPLOAD_BYTES for the multipart framing and the form fields. */
export const UPLOAD_FRAMING_BYTES = 1024 * 1024;

/**
 * The template with every `${NAME}` replaced (nginx's own `$name` variables are lower case and stay). A name
 * without a value is an error, not an empty string in the configuration.
 */
export function renderGatewayConfig(
  settings: GatewaySettings,
  template = readFileSync(GATEWAY_TEMPLATE, 'utf8'),
) {
  const values: Record<string, string> = { ...settings };
  const missing = new Set<string>();
  const config = template.replace(/\$\{([A-Z][A-Z0-9_]*)\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) missing.add(name);
    return value ?? '';
  });
  if (missing.size > 0) throw new Error(`Gateway configuration: no value for ${[...missing].join(', ')}`);
  return config;
}
