/** The customer-facing signing page; under /service/ so that the gateway routes it to this service. */
export const SIGNING_ROUTE = 'service/:tenant/unterschrift';

/** The signing page of a tenant, as an absolute path (the mailed link adds `?token=...`). */
export function signingPagePath(tenantCode: string): string {
  return `/service/${encodeURIComponent(tenantCode)}/unterschrift`;
}
