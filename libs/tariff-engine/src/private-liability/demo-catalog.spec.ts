import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { DEMO_PRIVATE_LIABILITY_CATALOG_PATH } from '../demo-catalogs.js';
import { calculatePrivateLiability } from './calculate.js';
import { loadPrivateLiabilityCatalog } from './catalog.js';
import { BENEFIT_IDS } from './catalog-types.js';
import { CIVIL_SERVICE_OCCUPATIONS } from './occupations.js';
import { PAYMENT_MODES, type PaymentMode } from './payment-mode.js';
import type { HouseholdType, PrivateLiabilityRequest } from './request.js';

const catalog = loadPrivateLiabilityCatalog(DEMO_PRIVATE_LIABILITY_CATALOG_PATH);
const products = catalog.providers.flatMap((provider) => provider.products);
const ON = new Date('2025-06-15T10:00:00Z');

function request(
  options: {
    age?: number;
    household?: HouseholdType;
    mode?: PaymentMode;
    civilServant?: boolean;
    occupation?: (typeof CIVIL_SERVICE_OCCUPATIONS)[number];
    preInsured?: boolean;
    priorDamages?: boolean;
  } = {},
): PrivateLiabilityRequest {
  const household = options.household ?? 'single';
  const partner = household === 'couple' || household === 'family';
  return {
    policyholder: { birthdate: Date.UTC(2025 - (options.age ?? 40), 0, 10) / 1000 },
    subject_matter: {
      policyholder: {
        civil_servant: options.civilServant ?? false,
        include_civil_service_liability: options.occupation !== undefined,
        civil_service_occupation: options.occupation ?? null,
      },
      partner: partner ? { civil_servant: false } : null,
      include_children: household === 'single_parent' || household === 'family',
    },
    previous_insurance: {
      pre_insured: options.preInsured ?? false,
      damage_free: !(options.priorDamages ?? false),
    },
    desired_payment_mode: options.mode ?? 'yearly',
  };
}

describe('demo catalog catalogs/private-liability.v1.json', () => {
  it('lies in catalogs/ at the package root, next to src/ and dist/', () => {
    expect(DEMO_PRIVATE_LIABILITY_CATALOG_PATH).toBe(
      join(__dirname, '..', '..', 'catalogs', 'private-liability.v1.json'),
    );
    expect(existsSync(DEMO_PRIVATE_LIABILITY_CATALOG_PATH)).toBe(true);
    expect(catalog.version).toMatch(/\S/);
  });

  it('has at least 8 fictional providers with 2–3 product lines each', () => {
    expect(catalog.providers.length).toBeGreaterThanOrEqual(8);
    const outside = catalog.providers.filter(
      (provider) => provider.products.length < 2 || provider.products.length > 3,
    );
    expect(outside.map((provider) => provider.id)).toEqual([]);
    expect(new Set(catalog.providers.map((provider) => provider.name)).size).toBe(catalog.providers.length);
  });

  it('makes every occupation insurable somewhere, teachers with school-key loss', () => {
    for (const occupation of CIVIL_SERVICE_OCCUPATIONS) {
      const result = calculatePrivateLiability(catalog, request({ civilServant: true, occupation }), ON);
      expect({ occupation, insurable: result.success.length > 0 }).toEqual({ occupation, insurable: true });
    }
    const teacher = calculatePrivateLiability(
      catalog,
      request({ civilServant: true, occupation: 'lehrer' }),
      ON,
    );
    for (const tariff of teacher.success) {
      const insured = tariff.product_attributes.civil_service_liability?.insured[0];
      expect(insured?.school_key_loss).toBe(true);
      expect(insured?.school_key_loss_sum_eur).toBeGreaterThan(0);
    }
  });

  it('is calibrated to the Finanztest 2023 ranges for Komfort lines (single 40–60, couple 49–72, family 50–80 EUR)', () => {
    const ranges: [HouseholdType, number, number][] = [
      ['single', 4000, 6000],
      ['couple', 4900, 7200],
      ['family', 5000, 8000],
    ];
    for (const [household, min, max] of ranges) {
      const result = calculatePrivateLiability(catalog, request({ household }), ON);
      const komfort = result.success.filter((tariff) => tariff.product_attributes.product_line === 'komfort');
      expect(komfort.length).toBeGreaterThanOrEqual(7);
      for (const tariff of komfort) {
        expect({
          id: tariff.origin_id,
          household,
          inRange: tariff.premium.gross_cents >= min && tariff.premium.gross_cents <= max,
        }).toEqual({
          id: tariff.origin_id,
          household,
          inRange: true,
        });
      }
    }
  });

  it('keeps every plain yearly premium within 30–130 EUR gross', () => {
    for (const household of ['single', 'couple', 'single_parent', 'family'] as const) {
      for (const age of [20, 40, 70]) {
        for (const tariff of calculatePrivateLiability(catalog, request({ household, age }), ON).success) {
          expect(tariff.premium.gross_cents).toBeGreaterThanOrEqual(3000);
          expect(tariff.premium.gross_cents).toBeLessThanOrEqual(13000);
        }
      }
    }
  });

  it('uses market-like discounts and surcharges', () => {
    for (const product of products) {
      const { civil_servant_discount_bp: discount, payment_mode_surcharges_bp: modes } = product;
      expect(discount === 0 || (discount >= 500 && discount <= 1500)).toBe(true);
      expect(modes.yearly).toBe(0);
      for (const group of product.civil_service_liability?.groups ?? []) {
        expect(group.add_on_net_cents).toBeGreaterThanOrEqual(1500);
        expect(group.add_on_net_cents).toBeLessThanOrEqual(5000);
      }
      if (product.prior_damage.handling === 'surcharge') {
        expect(product.prior_damage.surcharge_bp).toBeGreaterThanOrEqual(1000);
        expect(product.prior_damage.surcharge_bp).toBeLessThanOrEqual(2500);
      }
      expect(modes.monthly ?? 0).toBeLessThanOrEqual(700);
    }
    const handlings = new Set(products.map((product) => product.prior_damage.handling));
    expect([...handlings].sort()).toEqual(['refuse', 'surcharge', 'underwriting']);
    expect(products.some((product) => product.payment_mode_surcharges_bp.monthly === undefined)).toBe(true);
    expect(products.some((product) => product.payment_mode_surcharges_bp.monthly === 0)).toBe(true);
    expect(products.some((product) => product.civil_service_liability === null)).toBe(true);
  });

  it('answers every payment mode, sorted by yearly payment then id, with refusals sorted by id', () => {
    for (const mode of PAYMENT_MODES) {
      const result = calculatePrivateLiability(
        catalog,
        request({ mode, household: 'family', civilServant: true, occupation: 'polizei', priorDamages: true }),
        ON,
      );
      expect(result.success.length).toBeGreaterThan(0);
      expect(result.errors.length).toBeGreaterThan(0);
      expect(result.success.length + result.errors.length).toBe(products.length);
      const keys = result.success.map(
        (tariff) => [tariff.premium.paid_per_year_cents, tariff.origin_id] as const,
      );
      const sorted = [...keys].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
      expect(keys).toEqual(sorted);
      const ids = result.errors.map((refusal) => refusal.id);
      expect(ids).toEqual([...ids].sort());
      for (const tariff of result.success) {
        expect(tariff.payment_mode).toBe(mode);
        expect(tariff.fees[0]?.amount.amount).toMatch(/^\d+\.\d{2}$/);
        expect(Object.keys(tariff.product_attributes.benefits)).toEqual([...BENEFIT_IDS]);
      }
      for (const refusal of result.errors) expect(refusal.messages.length).toBeGreaterThan(0);
    }
  });

  it('refuses monthly payment where it is not offered and seniors where the age range ends', () => {
    const monthly = calculatePrivateLiability(catalog, request({ mode: 'monthly' }), ON);
    expect(monthly.errors.map((refusal) => refusal.reasons)).toContainEqual(['payment_mode_not_offered']);
    const senior = calculatePrivateLiability(catalog, request({ age: 72 }), ON);
    expect(senior.errors.map((refusal) => refusal.reasons)).toContainEqual(['age_out_of_range']);
    expect(senior.success.map((tariff) => tariff.origin_id)).toContain('schwarzwald-aktiv60');
    const young = calculatePrivateLiability(catalog, request({ age: 30 }), ON);
    expect(young.errors.map((refusal) => refusal.id)).toEqual(['schwarzwald-aktiv60']);
  });

  it('is deterministic: the same request gives the same answer, whatever the form of the dates', () => {
    const input = request({
      household: 'couple',
      mode: 'quarterly',
      civilServant: true,
      occupation: 'lehrer',
      preInsured: true,
    });
    const first = calculatePrivateLiability(catalog, input, ON);
    const again = calculatePrivateLiability(catalog, structuredClone(input), new Date(ON.getTime()));
    const asSeconds = calculatePrivateLiability(
      catalog,
      { ...input, policyholder: { birthdate: new Date(Number(input.policyholder.birthdate) * 1000) } },
      ON.getTime() / 1000,
    );
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    expect(JSON.stringify(asSeconds)).toBe(JSON.stringify(first));
    expect(first.catalog_version).toBe(catalog.version);
  });

  it('reloads to an equal catalog', () => {
    expect(loadPrivateLiabilityCatalog(DEMO_PRIVATE_LIABILITY_CATALOG_PATH)).toEqual(catalog);
  });
});
