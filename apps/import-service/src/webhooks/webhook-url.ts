import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { DomainError } from '@broker/errors';

/** Where webhooks may go. */
export interface WebhookUrlPolicy {
  /** Plain http (development only); otherwise https is required. */
  allowHttp: boolean;
  /** Host names and CIDR ranges allowed although loopback, link-local or private (WEBHOOK_ALLOWED_HOSTS). */
  allowedHosts: string[];
}

export const WEBHOOK_URL_MAX_LENGTH = 2_000;

/** A refused endpoint URL: why, for the caller (400 at registration, a failed attempt at delivery). */
export class WebhookUrlRefused extends Error {
  override readonly name = 'WebhookUrlRefused';
}

/** The endpoint URL, checked for its form (at registration): https, a host, no credentials, no fragment. */
export function parseWebhookUrl(value: string, policy: WebhookUrlPolicy): URL {
  let url: URL;
  try {
    if (value.length > WEBHOOK_URL_MAX_LENGTH) throw new Error('too long');
    url = new URL(value);
  } catch {
    throw DomainError.validation([
      `url must be an absolute https URL of at most ${WEBHOOK_URL_MAX_LENGTH} characters`,
    ]);
  }
  const protocols = policy.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!protocols.includes(url.protocol)) throw DomainError.validation(['url must use https']);
  if (url.username || url.password) throw DomainError.validation(['url must not carry credentials']);
  if (url.hash) throw DomainError.validation(['url must not have a fragment']);
  // As stored and sent: percent-encoding may make it longer than it was typed.
  if (url.toString().length > WEBHOOK_URL_MAX_LENGTH)
    throw DomainError.validation([`url must be at most ${WEBHOOK_URL_MAX_LENGTH} characters once encoded`]);
  return url;
}

/**
 * The address a delivery connects to: the host's addresses as resolved now, each of them public (no loopback,
 * link-local, private, carrier-grade NAT, multicast or reserved range) unless the host name or the address is in
 * WEBHOOK_ALLOWED_HOSTS. Checked at every delivery, and the connection goes to the address checked, so a name that
 * later resolves elsewhere (DNS rebinding) cannot turn a delivery inward.
 */
export async function deliveryAddress(
  url: URL,
  policy: WebhookUrlPolicy,
): Promise<{ address: string; family: 4 | 6 }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const resolved = ipaddr.isValid(host)
    ? [{ address: host, family: ipaddr.parse(host).kind() === 'ipv4' ? 4 : 6 }]
    : await lookup(host, { all: true, verbatim: true }).catch(() => {
        throw new WebhookUrlRefused(`The host ${host} cannot be resolved`);
      });
  if (resolved.length === 0) throw new WebhookUrlRefused(`The host ${host} cannot be resolved`);
  const hostAllowed = policy.allowedHosts.some((entry) => entry.toLowerCase() === host.toLowerCase());
  // The refusal does not say what a name resolves to: a caller would learn the deployment's inner addresses.
  for (const { address } of resolved)
    if (!hostAllowed && !isPublic(address) && !inAllowedRange(address, policy.allowedHosts))
      throw new WebhookUrlRefused(
        `The host ${host} is not public: an address it resolves to is not (allow it in WEBHOOK_ALLOWED_HOSTS)`,
      );
  const [first] = resolved;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

function isPublic(address: string): boolean {
  const parsed = ipaddr.process(address);
  // ::a.b.c.d (IPv4-compatible, deprecated) names an IPv4 address, which ipaddr.js would call public.
  const ipv4Compatible =
    parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0);
  return parsed.range() === 'unicast' && !ipv4Compatible;
}

function inAllowedRange(address: string, allowed: string[]): boolean {
  const parsed = ipaddr.process(address);
  return allowed.some((entry) => {
    if (!entry.includes('/'))
      return ipaddr.isValid(entry) && ipaddr.process(entry).toString() === parsed.toString();
    try {
      const [range, bits] = ipaddr.parseCIDR(entry);
      return range.kind() === parsed.kind() && parsed.match(range, bits);
    } catch {
      return false;
    }
  });
}
