import type { CivilServiceOccupation } from './occupations.js';
import type { PaymentMode } from './payment-mode.js';
import type { HouseholdType } from './request.js';

/** The format this module reads; a catalog names it in `catalog_format`. */
export const PRIVATE_LIABILITY_CATALOG_FORMAT = 'private-liability/v1';

export const PRODUCT_LINES = ['basis', 'komfort', 'premium'] as const;

export type ProductLine = (typeof PRODUCT_LINES)[number];

/** The benefits every product states, so that tariffs can be compared side by side. */
export const BENEFIT_IDS = [
  'schluesselverlust',
  'mietsachschaeden',
  'gefaelligkeitsschaeden',
  'forderungsausfall',
  'deliktunfaehige_kinder',
  'internet_schaeden',
  'allmaehlichkeitsschaeden',
  'auslandsschutz',
  'ehrenamt',
  'drohnen',
  'neuwertentschaedigung',
  'best_leistungs_garantie',
] as const;

export type BenefitId = (typeof BENEFIT_IDS)[number];

/** German names of the compared benefits. */
export const BENEFIT_LABELS: Readonly<Record<BenefitId, string>> = {
  schluesselverlust: 'Schlüsselverlust (privat)',
  mietsachschaeden: 'Mietsachschäden',
  gefaelligkeitsschaeden: 'Gefälligkeitsschäden',
  forderungsausfall: 'Forderungsausfalldeckung',
  deliktunfaehige_kinder: 'Schäden durch deliktunfähige Kinder',
  internet_schaeden: 'Internet- und Datenschäden',
  allmaehlichkeitsschaeden: 'Allmählichkeitsschäden',
  auslandsschutz: 'Auslandsschutz',
  ehrenamt: 'Ehrenamtliche Tätigkeit',
  drohnen: 'Drohnen und Modellflug',
  neuwertentschaedigung: 'Neuwertentschädigung',
  best_leistungs_garantie: 'Best-Leistungs-Garantie',
};

/** `false`: not covered; `true`: covered up to the coverage sum; a number: covered up to that many EUR. */
export type BenefitValue = boolean | number;

export interface OccupationGroup {
  readonly id: string;
  readonly name: string;
  readonly occupations: readonly CivilServiceOccupation[];
  /** The add-on covers the loss of school/service keys (teachers); products then state its sum. */
  readonly school_key_loss: boolean;
}

export interface AgeBand {
  readonly min_age: number;
  readonly max_age: number;
  /** Yearly net premium in cents per household type; `null`: household type not offered in this band. */
  readonly premiums_net_cents: Readonly<Record<HouseholdType, number | null>>;
}

export interface ServiceLiabilityGroupPrice {
  readonly group: string;
  /** Yearly net add-on per insured person in cents. */
  readonly add_on_net_cents: number;
  /** Sublimit for school/service keys; required exactly when the group includes school-key loss. */
  readonly school_key_loss_sum_eur?: number | null;
}

export interface ServiceLiabilityTerms {
  readonly coverage_sum_eur: number;
  /** The occupation groups insurable in this product; occupations of other groups are refused. */
  readonly groups: readonly ServiceLiabilityGroupPrice[];
}

export type PriorDamageRule =
  | { readonly handling: 'surcharge'; readonly surcharge_bp: number }
  | { readonly handling: 'underwriting' }
  | { readonly handling: 'refuse' };

export interface PreInsuranceDiscount {
  readonly discount_bp: number;
  /** Only for a claim-free switch (no prior damages). */
  readonly requires_damage_free: boolean;
}

export interface PrivateLiabilityProduct {
  /** Unique in the catalog; the product's `origin_id` and the refusal's `id`. */
  readonly id: string;
  readonly name: string;
  readonly line: ProductLine;
  readonly coverage_sum_eur: number;
  readonly deductible_eur: number;
  /** By the policyholder's age; ascending, contiguous, non-overlapping. Ages outside them are refused. */
  readonly age_bands: readonly AgeBand[];
  /** Discount on the base premium when the policyholder or the partner is a civil servant; 0 for none. */
  readonly civil_servant_discount_bp: number;
  /** `null`: no service-liability add-on in this product. */
  readonly civil_service_liability: ServiceLiabilityTerms | null;
  readonly prior_damage: PriorDamageRule;
  /** `null`: no pre-insurance discount. */
  readonly pre_insurance_discount: PreInsuranceDiscount | null;
  /** Surcharge on the net premium per offered payment mode; a mode not listed is not offered. */
  readonly payment_mode_surcharges_bp: Readonly<Partial<Record<PaymentMode, number>>>;
  readonly benefits: Readonly<Record<BenefitId, BenefitValue>>;
}

export interface PrivateLiabilityProvider {
  /** Unique in the catalog; the provider's `origin_id`. */
  readonly id: string;
  readonly name: string;
  readonly products: readonly PrivateLiabilityProduct[];
}

export interface PrivateLiabilityCatalog {
  readonly catalog_format: typeof PRIVATE_LIABILITY_CATALOG_FORMAT;
  /** The data version the operator gives the catalog, e.g. `2025.1`; echoed with every result. */
  readonly version: string;
  readonly name: string;
  readonly notes?: string;
  /** Line-of-business name used in refusals (`product`), e.g. `Privathaftpflicht`. */
  readonly line_of_business: string;
  readonly currency: 'EUR';
  /** Versicherungsteuer in basis points: 1900 = 19 %. */
  readonly insurance_tax_bp: number;
  readonly occupation_groups: readonly OccupationGroup[];
  readonly providers: readonly PrivateLiabilityProvider[];
}
