import type { FactoryProvider } from '@nestjs/common';
import { loadPrivateLiabilityCatalog, type PrivateLiabilityCatalog } from '@broker/tariff-engine';

export const PRIVATE_LIABILITY_CATALOG = Symbol('PRIVATE_LIABILITY_CATALOG');

/**
 * The catalog, read and validated once at boot: an invalid file stops the service with the catalog's
 * problems listed (the tariff engine's CatalogError message).
 */
export function privateLiabilityCatalogProvider(path: string): FactoryProvider<PrivateLiabilityCatalog> {
  return { provide: PRIVATE_LIABILITY_CATALOG, useFactory: () => loadPrivateLiabilityCatalog(path) };
}
