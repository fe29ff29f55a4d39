import type { BenefitId, ProductLine } from './catalog-types.js';
import type { CivilServiceOccupation } from './occupations.js';
import type { PaymentMode } from './payment-mode.js';
import type { HouseholdType, InsuredRole } from './request.js';

/** A money amount as the API writes it: `{ amount: "12.34", currency: "EUR" }`. */
export interface MoneyAmount {
  readonly amount: string;
  readonly currency: 'EUR';
}

export interface FeeTax {
  readonly type: 'percent';
  /** Percent, e.g. 19. */
  readonly amount: number;
}

/** The instalment to pay per payment period, insurance tax included. */
export interface Fee {
  readonly amount: MoneyAmount;
  readonly payment_mode: PaymentMode;
  readonly taxes: readonly FeeTax[];
}

/** Every step of the premium, in integer cents and basis points, in the order the engine applies them. */
export interface PremiumBreakdown {
  readonly household: HouseholdType;
  readonly policyholder_age: number;
  readonly age_band: { readonly min_age: number; readonly max_age: number };
  /** 1. Yearly net base premium of the household type in the age band. */
  readonly base_net_cents: number;
  /** 2. Civil-servant discount on the base premium (subtracted). */
  readonly civil_servant_discount_bp: number;
  readonly civil_servant_discount_cents: number;
  /** 3. Service-liability add-ons, summed over the insured persons who asked for one (added). */
  readonly civil_service_liability_cents: number;
  /** 4. Prior-damage surcharge on the sum so far (added). */
  readonly prior_damage_surcharge_bp: number;
  readonly prior_damage_surcharge_cents: number;
  /** 5. Pre-insurance discount on the sum so far (subtracted). */
  readonly pre_insurance_discount_bp: number;
  readonly pre_insurance_discount_cents: number;
  /** Yearly net premium after steps 1–5. */
  readonly net_cents: number;
  /** 6. Payment-mode surcharge on the net premium (added). */
  readonly payment_mode_surcharge_bp: number;
  readonly payment_mode_surcharge_cents: number;
  /** Net premium the tax is levied on: net_cents + payment_mode_surcharge_cents. */
  readonly taxable_net_cents: number;
  /** 7. Insurance tax (Versicherungsteuer) on the taxable net premium. */
  readonly insurance_tax_bp: number;
  readonly insurance_tax_cents: number;
  /** Yearly gross premium: taxable_net_cents + insurance_tax_cents. */
  readonly gross_cents: number;
  /** 8. gross_cents divided by the instalments per year, rounded half up to cents. */
  readonly instalments_per_year: number;
  readonly instalment_cents: number;
  /** What the policyholder pays in a year: instalment_cents × instalments_per_year (the sort key). */
  readonly paid_per_year_cents: number;
}

/** One compared benefit; its German name is in `BENEFIT_LABELS` (kept out of every response to keep it small). */
export interface BenefitAttribute {
  readonly covered: boolean;
  /** Sublimit in EUR; `null` when covered up to the coverage sum, or not covered. */
  readonly sum_eur: number | null;
}

export interface InsuredServiceLiability {
  readonly person: InsuredRole;
  readonly occupation: CivilServiceOccupation;
  readonly occupation_group: string;
  readonly occupation_group_name: string;
  readonly add_on_net_cents: number;
  /** Loss of school/service keys is covered (teachers' group). */
  readonly school_key_loss: boolean;
  readonly school_key_loss_sum_eur: number | null;
}

export interface ProductAttributes {
  readonly product_line: ProductLine;
  readonly household: HouseholdType;
  readonly coverage_sum_eur: number;
  readonly deductible_eur: number;
  readonly benefits: Readonly<Record<BenefitId, BenefitAttribute>>;
  /** The service-liability add-on when the request asked for one; otherwise null. */
  readonly civil_service_liability: {
    readonly coverage_sum_eur: number;
    readonly insured: readonly InsuredServiceLiability[];
  } | null;
}

/** A product that could be calculated: the engine's part of a `calculation_result.success` entry. */
export interface Tariff {
  readonly name: string;
  readonly origin_id: string;
  readonly provider: { readonly name: string; readonly origin_id: string };
  readonly payment_mode: PaymentMode;
  readonly fees: readonly Fee[];
  readonly premium: PremiumBreakdown;
  readonly product_attributes: ProductAttributes;
}

export const REFUSAL_REASONS = [
  'age_out_of_range',
  'household_not_offered',
  'payment_mode_not_offered',
  'civil_service_liability_not_offered',
  'occupation_not_insurable',
  'prior_damage_underwriting',
  'prior_damage_refused',
] as const;

export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** A product that cannot be calculated for the request: a `calculation_result.errors` entry. */
export interface Refusal {
  /** Provider name. */
  readonly title: string;
  /** Product name. */
  readonly sub_title: string;
  /** Line of business from the catalog, e.g. `Privathaftpflicht`. */
  readonly product: string;
  /** Product id (its origin_id). */
  readonly id: string;
  /** Why, one sentence per reason. */
  readonly messages: readonly string[];
  /** The same reasons as codes, in the same order (for the service and tests; not part of the spec's entry). */
  readonly reasons: readonly RefusalReason[];
}

export interface PrivateLiabilityResult {
  /** The catalog's `version`. */
  readonly catalog_version: string;
  /** Sorted by paid_per_year_cents, then origin_id. */
  readonly success: readonly Tariff[];
  /** Sorted by id. */
  readonly errors: readonly Refusal[];
}
