import { z } from 'zod';

import { BASIS_POINTS_PER_UNIT } from '../money.js';
import { BENEFIT_IDS, PRIVATE_LIABILITY_CATALOG_FORMAT, PRODUCT_LINES } from './catalog-types.js';
import { CIVIL_SERVICE_OCCUPATIONS } from './occupations.js';
import { PAYMENT_MODES } from './payment-mode.js';
import { HOUSEHOLD_TYPES } from './request.js';

/** Shape of the catalog file. Rules across fields (contiguous age bands, references, ...) are in catalog.ts. */

const ID_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;

const id = z.string({ error: 'must be a string' }).regex(ID_PATTERN, {
  error: 'must be lower-case letters, digits, "-" or "_", starting with a letter or digit',
});

const text = z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' });

function wholeNumber(unit: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return z
    .int({ error: `must be a whole number (${unit})` })
    .min(min, { error: `must be >= ${min}` })
    .max(max, { error: `must be <= ${max}` });
}

const cents = wholeNumber('cents', 0);
const positiveEur = wholeNumber('EUR', 1);
const basisPoints = wholeNumber('basis points, 100 = 1 %', 0, BASIS_POINTS_PER_UNIT);
const age = wholeNumber('years', 0, 150);

const householdPremiums = z.strictObject(
  Object.fromEntries(HOUSEHOLD_TYPES.map((household) => [household, cents.nullable()])) as Record<
    (typeof HOUSEHOLD_TYPES)[number],
    z.ZodNullable<typeof cents>
  >,
);

const ageBand = z.strictObject({
  min_age: age,
  max_age: age,
  premiums_net_cents: householdPremiums,
});

const benefitValue = z.union([z.boolean(), z.int().min(1)], {
  error: 'must be true (covered up to the coverage sum), false (not covered) or a whole number of EUR >= 1',
});

const benefits = z.strictObject(
  Object.fromEntries(BENEFIT_IDS.map((benefit) => [benefit, benefitValue])) as Record<
    (typeof BENEFIT_IDS)[number],
    typeof benefitValue
  >,
);

const serviceLiability = z.strictObject({
  coverage_sum_eur: positiveEur,
  groups: z
    .array(
      z.strictObject({
        group: id,
        add_on_net_cents: cents,
        school_key_loss_sum_eur: positiveEur.nullable().optional(),
      }),
    )
    .min(1, { error: 'must list at least one occupation group (use null for no service liability)' }),
});

const priorDamage = z.discriminatedUnion(
  'handling',
  [
    z.strictObject({ handling: z.literal('surcharge'), surcharge_bp: basisPoints }),
    z.strictObject({ handling: z.literal('underwriting') }),
    z.strictObject({ handling: z.literal('refuse') }),
  ],
  { error: 'handling must be "surcharge" (with surcharge_bp), "underwriting" or "refuse"' },
);

const paymentModes = z.partialRecord(z.enum(PAYMENT_MODES), basisPoints);

const product = z.strictObject({
  id,
  name: text,
  line: z.enum(PRODUCT_LINES, { error: `must be one of ${PRODUCT_LINES.join(', ')}` }),
  coverage_sum_eur: positiveEur,
  deductible_eur: wholeNumber('EUR', 0),
  age_bands: z.array(ageBand).min(1, { error: 'must hold at least one age band' }),
  civil_servant_discount_bp: basisPoints,
  civil_service_liability: serviceLiability.nullable(),
  prior_damage: priorDamage,
  pre_insurance_discount: z
    .strictObject({
      discount_bp: basisPoints,
      requires_damage_free: z.boolean({ error: 'must be a boolean' }),
    })
    .nullable(),
  payment_mode_surcharges_bp: paymentModes,
  benefits,
});

const provider = z.strictObject({
  id,
  name: text,
  products: z.array(product).min(1, { error: 'must hold at least one product' }),
});

const occupationGroup = z.strictObject({
  id,
  name: text,
  occupations: z
    .array(
      z.enum(CIVIL_SERVICE_OCCUPATIONS, {
        error: `must be one of the civil-service occupations ${CIVIL_SERVICE_OCCUPATIONS.join(', ')}`,
      }),
    )
    .min(1, { error: 'must list at least one occupation' }),
  school_key_loss: z.boolean({ error: 'must be a boolean' }),
});

export const privateLiabilityCatalogSchema = z.strictObject({
  catalog_format: z.literal(PRIVATE_LIABILITY_CATALOG_FORMAT, {
    error: `must be "${PRIVATE_LIABILITY_CATALOG_FORMAT}"`,
  }),
  version: text,
  name: text,
  notes: z.string().optional(),
  line_of_business: text,
  currency: z.literal('EUR', { error: 'must be "EUR"' }),
  insurance_tax_bp: basisPoints,
  occupation_groups: z.array(occupationGroup),
  providers: z.array(provider).min(1, { error: 'must hold at least one provider' }),
});
