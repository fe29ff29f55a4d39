import { resolve } from 'node:path';

/**
 * The demo catalogs shipped with the package, in `catalogs/` next to `src/` and `dist/`: this file is one level
 * below the package root both as `src/demo-catalogs.ts` (jest) and as `dist/demo-catalogs.js` (built), so the
 * same relative path works in both.
 */
export const CATALOGS_DIRECTORY = resolve(__dirname, '..', 'catalogs');

/** The demo private-liability catalog: fictional providers calibrated to the German market. */
export const DEMO_PRIVATE_LIABILITY_CATALOG_PATH = resolve(CATALOGS_DIRECTORY, 'private-liability.v1.json');
