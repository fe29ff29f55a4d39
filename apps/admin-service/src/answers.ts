import type { Response } from 'express';
import { noStoreHeader } from '@broker/platform';

/** The base of every administration path. */
export const ADMIN_BASE = 'admin/v1';

/** The path of an object of a tenant, as Location names it (each segment percent-encoded). */
export function tenantPath(tenant: string, ...segments: string[]): string {
  return `/${ADMIN_BASE}/tenants/${[tenant, ...segments].map(encodeURIComponent).join('/')}`;
}

/** Location of a 201: where the object made is read. */
export const LOCATION_HEADER = {
  Location: { description: 'Where the object made is read', required: true, schema: { type: 'string' } },
};

/** An answer holding a secret shown once: no cache may keep it. */
export const SECRET_ANSWER_HEADERS = { 'Cache-Control': noStoreHeader('no-store') };

export function setLocation(response: Response, location: string): void {
  response.setHeader('Location', location);
}

export function setNoStore(response: Response): void {
  response.setHeader('Cache-Control', 'no-store');
}
