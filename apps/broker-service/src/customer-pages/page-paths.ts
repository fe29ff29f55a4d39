/**
 * The pages customers open from the links in their messages. Under /service/ so that the gateway routes them to
 * this service; the mailed link is `{CUSTOMER_BASE_URL}` + the page's path + `?token=...`.
 */
export type CustomerPage = 'unterschrift' | 'passwort-setzen';

/** The route of a page, for @Controller. */
export const customerPageRoute = (page: CustomerPage) => `service/:tenant/${page}`;

/** A tenant's page as an absolute path. */
export function customerPagePath(tenantCode: string, page: CustomerPage): string {
  return `/service/${encodeURIComponent(tenantCode)}/${page}`;
}
