import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { CatalogError } from '../catalog-error.js';
import { loadPrivateLiabilityCatalog, parsePrivateLiabilityCatalog } from './catalog.js';

const GOLDEN_CATALOG_PATH = join(__dirname, '..', '..', 'test', 'fixtures', 'golden-catalog.json');

/** A fresh, mutable copy of the (valid) golden test catalog. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests break the catalog on purpose
function catalogData(): any {
  return JSON.parse(readFileSync(GOLDEN_CATALOG_PATH, 'utf8'));
}

function issuesOf(data: unknown): string[] {
  try {
    parsePrivateLiabilityCatalog(data, 'test.json');
  } catch (error) {
    if (error instanceof CatalogError) return error.issues.map((issue) => `${issue.path}: ${issue.message}`);
    throw error;
  }
  throw new Error('the catalog was accepted');
}

describe('private-liability catalog validation', () => {
  it('accepts the golden test catalog and freezes it', () => {
    const catalog = parsePrivateLiabilityCatalog(catalogData());
    expect(catalog.providers).toHaveLength(2);
    expect(Object.isFrozen(catalog.providers[0]?.products[0]?.age_bands[0]?.premiums_net_cents)).toBe(true);
  });

  it('names the file and every problem in the message', () => {
    const data = catalogData();
    data.providers[0].products[0].age_bands[0].max_age = 10;
    data.version = '';
    let error: unknown;
    try {
      parsePrivateLiabilityCatalog(data, '/etc/calc/catalog.json');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CatalogError);
    expect((error as CatalogError).name).toBe('CatalogError');
    expect((error as CatalogError).message).toBe(
      'Invalid catalog /etc/calc/catalog.json (1 problem):\n  - version: must not be empty',
    );
  });

  it('reports an age band whose max is below its min', () => {
    const data = catalogData();
    data.providers[0].products[0].age_bands[0].max_age = 10;
    expect(issuesOf(data)).toEqual([
      'providers[0].products[0].age_bands[0].max_age: must be >= min_age (18)',
      "providers[0].products[0].age_bands[1].min_age: must be 11, right after the previous band's max_age 10 (age bands are ascending, contiguous and non-overlapping)",
    ]);
  });

  it('reports gaps and overlaps between age bands', () => {
    const gap = catalogData();
    gap.providers[0].products[0].age_bands[1].min_age = 27;
    expect(issuesOf(gap)).toEqual([
      "providers[0].products[0].age_bands[1].min_age: must be 26, right after the previous band's max_age 25 (age bands are ascending, contiguous and non-overlapping)",
    ]);
    const overlap = catalogData();
    overlap.providers[1].products[1].age_bands[1].min_age = 20;
    expect(issuesOf(overlap)).toEqual([
      "providers[1].products[1].age_bands[1].min_age: must be 26, right after the previous band's max_age 25 (age bands are ascending, contiguous and non-overlapping)",
    ]);
  });

  it('reports references to unknown occupation groups, double pricing and school-key sums', () => {
    const data = catalogData();
    const groups = data.providers[1].products[0].civil_service_liability.groups;
    groups[1].group = 'polizei';
    groups[2].group = 'schule';
    delete groups[0].school_key_loss_sum_eur;
    groups[3].school_key_loss_sum_eur = 1000;
    expect(issuesOf(data)).toEqual([
      'providers[1].products[0].civil_service_liability.groups[0].school_key_loss_sum_eur: required: group "schule" includes school-key loss (Schlüsselverlust)',
      'providers[1].products[0].civil_service_liability.groups[1].group: unknown occupation group "polizei" (known: schule, vollzug, einsatz, verwaltung, heilberufe)',
      'providers[1].products[0].civil_service_liability.groups[2].group: occupation group "schule" is priced twice',
      'providers[1].products[0].civil_service_liability.groups[3].school_key_loss_sum_eur: must be null or absent: group "verwaltung" does not include school-key loss',
    ]);
  });

  it('reports duplicate ids and occupations in two groups (and the references a renamed group breaks)', () => {
    const data = catalogData();
    data.providers[1].id = 'goldtest';
    data.providers[1].products[1].id = 'goldtest-basis';
    (data.occupation_groups[1].occupations as string[]).push('lehrer');
    data.occupation_groups[2].id = 'schule';
    expect(issuesOf(data)).toEqual([
      'occupation_groups[1].occupations[2]: occupation "lehrer" is already in group "schule"; an occupation belongs to one group',
      'occupation_groups[2].id: duplicate occupation group id "schule" (also occupation_groups[0])',
      'providers[0].products[0].civil_service_liability.groups[2].group: unknown occupation group "einsatz" (known: schule, vollzug, verwaltung, heilberufe)',
      'providers[1].id: duplicate provider id "goldtest" (also providers[0])',
      'providers[1].products[0].civil_service_liability.groups[2].group: unknown occupation group "einsatz" (known: schule, vollzug, verwaltung, heilberufe)',
      'providers[1].products[1].id: duplicate product id "goldtest-basis" (also providers[0].products[1])',
    ]);
  });

  it('reports products that offer no household or no payment mode', () => {
    const data = catalogData();
    const band = data.providers[0].products[1].age_bands[0];
    for (const household of Object.keys(band.premiums_net_cents as object))
      band.premiums_net_cents[household] = null;
    data.providers[0].products[1].payment_mode_surcharges_bp = {};
    expect(issuesOf(data)).toEqual([
      'providers[0].products[1].age_bands: no age band has a premium for any household type',
      'providers[0].products[1].payment_mode_surcharges_bp: must offer at least one payment mode',
    ]);
  });

  it('reports type and range errors with readable messages', () => {
    const data = catalogData();
    const product = data.providers[0].products[0];
    product.age_bands[0].premiums_net_cents.single = 40.5;
    product.age_bands[0].premiums_net_cents.couple = -1;
    product.age_bands[0].premiums_net_cent = {};
    product.civil_servant_discount_bp = 12000;
    product.payment_mode_surcharges_bp.weekly = 100;
    product.prior_damage = { handling: 'decline' };
    product.line = 'gold';
    delete product.benefits.drohnen;
    product.benefits.ehrenamt = 'yes';
    (data.occupation_groups[0].occupations as string[]).push('pilot');
    data.catalog_format = 'private-liability/v2';
    data.currency = 'USD';
    data.providers[1].products[1].id = 'Probus Start';
    expect(issuesOf(data)).toEqual([
      'catalog_format: must be "private-liability/v1"',
      'currency: must be "EUR"',
      'occupation_groups[0].occupations[2]: must be one of the civil-service occupations lehrer, erzieher, hochschule, polizei, justiz, zoll, feuerwehr, rettungsdienst, bundeswehr, verwaltung, finanzverwaltung, richter, technischer_dienst, arzt, sonstige',
      'providers[0].products[0].line: must be one of basis, komfort, premium',
      'providers[0].products[0].age_bands[0].premiums_net_cents.single: must be a whole number (cents)',
      'providers[0].products[0].age_bands[0].premiums_net_cents.couple: must be >= 0',
      'providers[0].products[0].age_bands[0]: unknown key "premiums_net_cent"',
      'providers[0].products[0].civil_servant_discount_bp: must be <= 10000',
      'providers[0].products[0].prior_damage.handling: handling must be "surcharge" (with surcharge_bp), "underwriting" or "refuse"',
      'providers[0].products[0].payment_mode_surcharges_bp: unknown key "weekly"',
      'providers[0].products[0].benefits.ehrenamt: must be true (covered up to the coverage sum), false (not covered) or a whole number of EUR >= 1',
      'providers[0].products[0].benefits.drohnen: is required',
      'providers[1].products[1].id: must be lower-case letters, digits, "-" or "_", starting with a letter or digit',
    ]);
  });

  it('reports a document that is not an object', () => {
    expect(issuesOf([])).toEqual([': expected object, received array']);
    expect(issuesOf({ catalog_format: 'private-liability/v1' })[0]).toBe('version: is required');
  });

  describe('loadPrivateLiabilityCatalog', () => {
    const directory = mkdtempSync(join(tmpdir(), 'tariff-catalog-'));

    it('loads a valid file', () => {
      expect(loadPrivateLiabilityCatalog(GOLDEN_CATALOG_PATH).version).toBe('golden-1');
    });

    it('reads a file with a byte order mark', () => {
      const path = join(directory, 'bom.json');
      writeFileSync(path, `\ufeff${readFileSync(GOLDEN_CATALOG_PATH, 'utf8')}`);
      expect(loadPrivateLiabilityCatalog(path).version).toBe('golden-1');
    });

    it('names a missing file', () => {
      const path = join(directory, 'missing.json');
      expect(() => loadPrivateLiabilityCatalog(path)).toThrow(
        new RegExp(
          `^Invalid catalog ${path} \\(1 problem\\):\\n  - \\(catalog\\): cannot read the file: ENOENT`,
        ),
      );
    });

    it('names a file that is not JSON', () => {
      const path = join(directory, 'broken.json');
      writeFileSync(path, '{ "version": ');
      expect(() => loadPrivateLiabilityCatalog(path)).toThrow(CatalogError);
      expect(() => loadPrivateLiabilityCatalog(path)).toThrow(/\(catalog\): not valid JSON: /);
    });

    it('names the file of an invalid catalog', () => {
      const path = join(directory, 'invalid.json');
      const data = catalogData();
      data.providers[0].products[0].age_bands[2].max_age = 50;
      writeFileSync(path, JSON.stringify(data));
      expect(() => loadPrivateLiabilityCatalog(path)).toThrow(
        `Invalid catalog ${path} (1 problem):\n  - providers[0].products[0].age_bands[2].max_age: must be >= min_age (60)`,
      );
    });
  });
});
