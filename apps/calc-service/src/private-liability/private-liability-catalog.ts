import type { ValueProvider } from '@nestjs/common';
import { loadPrivateLiabilityCatalog, type PrivateLiabilityCatalog } from '@broker/tariff-engine';

export const PRIVATE_LIABILITY_CATALOG = Symbol('PRIVATE_LIABILITY_CATALOG');

/**
 * The catalog, read and validated when the module is put together, before the application starts: an invalid
 * file throws the tariff engine's CatalogError, which lists every problem (main.ts stops the process with it).
 */
export function privateLiabilityCatalogProvider(path: string): ValueProvider<PrivateLiabilityCatalog> {
  return { provide: PRIVATE_LIABILITY_CATALOG, useValue: loadPrivateLiabilityCatalog(path) };
}
