import 'reflect-metadata';
import type { CalculationParametersView } from '@broker/contracts';
import {
  calculatePrivateLiability,
  CIVIL_SERVICE_OCCUPATIONS,
  DEMO_PRIVATE_LIABILITY_CATALOG_PATH,
  loadPrivateLiabilityCatalog,
  PAYMENT_MODES,
  type PrivateLiabilityResult,
} from '@broker/tariff-engine';
import { engineRequest } from './calculation-parameters';
import {
  CalculationResponseWriter,
  offerRequestPart,
  productRefusal,
  tariffOffer,
} from './calculation-response';

const catalog = loadPrivateLiabilityCatalog(DEMO_PRIVATE_LIABILITY_CATALOG_PATH);
const YEAR = 365.25 * 86_400;
const NOW = new Date('2026-11-22T10:00:00Z');

/** The response as plain JSON.stringify of the views writes it. */
function stringified(parameters: CalculationParametersView, result: PrivateLiabilityResult): Buffer {
  const request = offerRequestPart(parameters);
  return Buffer.from(
    JSON.stringify({
      calculation_parameters: parameters,
      calculation_result: {
        success: result.success.map((tariff) => tariffOffer(tariff, request)),
        errors: result.errors.map(productRefusal),
        catalog_version: result.catalog_version,
      },
    }),
  );
}

/** Names a template must escape exactly as JSON.stringify does. */
const NAMES = [null, 'Muster', 'Mü"ller\\', 'Ölz\n\t', '😀 Smiley', '\u2028\u007f', 'a'.repeat(200)];
const OCCUPATIONS = [null, ...CIVIL_SERVICE_OCCUPATIONS];

/** Request parameters spread over ages, households, add-ons, occupations, prior damage and payment modes. */
function parameters(variant: number): CalculationParametersView {
  const pick = <T>(values: readonly T[], divisor: number): T =>
    values[Math.floor(variant / divisor) % values.length];
  const occupation = pick(OCCUPATIONS, 1);
  const partnered = variant % 3 !== 0;
  return {
    policyholder: {
      birthdate: Math.round(NOW.getTime() / 1000 - (16 + (variant % 70)) * YEAR),
      sex: pick(['female', 'male', null] as const, 5),
      name: pick(NAMES, 7),
      first_name: pick(NAMES, 11),
      last_name: null,
    },
    subject_matter: {
      policyholder: {
        civil_servant: variant % 2 === 0,
        include_civil_service_liability: occupation !== null,
        civil_service_occupation: occupation,
      },
      partner: partnered
        ? {
            civil_servant: variant % 4 === 1,
            include_civil_service_liability: variant % 5 === 1,
            civil_service_occupation: variant % 5 === 1 ? pick(CIVIL_SERVICE_OCCUPATIONS, 13) : null,
            birthdate:
              variant % 6 === 1 ? null : Math.round(NOW.getTime() / 1000 - (20 + (variant % 50)) * YEAR),
          }
        : null,
      include_children: variant % 7 < 3,
    },
    previous_insurance: { damage_free: variant % 9 !== 0, pre_insured: variant % 4 < 2 },
    desired_payment_mode: pick(PAYMENT_MODES, 3),
  };
}

describe('CalculationResponseWriter', () => {
  it('writes byte for byte what JSON.stringify gives, for one writer over many different requests', () => {
    const writer = new CalculationResponseWriter();
    let refusals = 0;
    let addOns = 0;
    for (let variant = 0; variant < 1_500; variant++) {
      const request = parameters(variant);
      const result = calculatePrivateLiability(catalog, engineRequest(request), NOW);
      refusals += result.errors.length;
      addOns += result.success.filter((tariff) => tariff.product_attributes.civil_service_liability).length;
      const written = writer.write(request, result);
      if (!written.equals(stringified(request, result))) {
        expect(written.toString()).toBe(stringified(request, result).toString()); // shows the difference
      }
    }
    // The variants reach the engine's different outcomes, not one shape over and over.
    expect(refusals).toBeGreaterThan(1_000);
    expect(addOns).toBeGreaterThan(1_000);
  });

  it('gives each answer a buffer of its own', () => {
    const writer = new CalculationResponseWriter();
    const first = writer.write(
      parameters(1),
      calculatePrivateLiability(catalog, engineRequest(parameters(1)), NOW),
    );
    const copy = Buffer.from(first);
    writer.write(parameters(2), calculatePrivateLiability(catalog, engineRequest(parameters(2)), NOW));
    expect(first.equals(copy)).toBe(true);
    expect(JSON.parse(first.toString()).calculation_parameters).toEqual(parameters(1));
  });
});

describe('CalculationResponseWriter after a failed answer', () => {
  it('starts the next answer afresh', () => {
    const writer = new CalculationResponseWriter();
    const request = parameters(2);
    const result = calculatePrivateLiability(catalog, engineRequest(request), NOW);
    const [first, ...rest] = result.success;
    expect(first).toBeDefined();
    const unserialisable = {
      toJSON: () => {
        throw new Error('unserialisable fee');
      },
    };
    const failing = { ...first, fees: [unserialisable] };
    expect(() => writer.write(request, { ...result, success: [first, failing as never, ...rest] })).toThrow(
      'unserialisable fee',
    );
    expect(writer.write(request, result).equals(stringified(request, result))).toBe(true);
  });
});
