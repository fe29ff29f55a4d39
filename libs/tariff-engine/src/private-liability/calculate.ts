import type { Instant } from '../calendar.js';
import { basisPointsToPercent, divideRoundHalfUp, formatCents, percentOf } from '../money.js';
import {
  BENEFIT_IDS,
  type BenefitId,
  type OccupationGroup,
  type PrivateLiabilityCatalog,
  type PrivateLiabilityProduct,
  type PrivateLiabilityProvider,
  type ServiceLiabilityGroupPrice,
} from './catalog-types.js';
import { INSTALMENTS_PER_YEAR, PAYMENT_MODES } from './payment-mode.js';
import {
  assertValidRequest,
  civilServantInHousehold,
  HOUSEHOLD_LABELS,
  householdOf,
  type HouseholdType,
  policyholderAge,
  type PrivateLiabilityRequest,
  serviceLiabilityWishes,
  type ServiceLiabilityWish,
} from './request.js';
import type {
  BenefitAttribute,
  InsuredServiceLiability,
  PremiumBreakdown,
  PrivateLiabilityResult,
  Refusal,
  RefusalReason,
  Tariff,
} from './result.js';

/** A wanted add-on with the occupation group of its occupation (undefined: in no group, insurable nowhere). */
interface GroupedWish {
  readonly wish: ServiceLiabilityWish;
  readonly group: OccupationGroup | undefined;
}

/** What the engine derives from the request once, for every product. */
interface RequestFacts {
  readonly request: PrivateLiabilityRequest;
  readonly household: HouseholdType;
  readonly age: number;
  readonly civilServant: boolean;
  readonly wishes: readonly GroupedWish[];
}

interface AddOn {
  readonly wish: ServiceLiabilityWish;
  readonly group: OccupationGroup;
  readonly price: ServiceLiabilityGroupPrice;
}

/**
 * Calculates every product of the catalog for the request: one `Tariff` per product that can be calculated,
 * one `Refusal` (with every reason) per product that cannot. Pure and deterministic: the result depends only
 * on the three arguments. `calculationDate` fixes the policyholder's age (calendar dates in Europe/Berlin).
 *
 * Throws a `TypeError` for a request that is not valid (unknown payment mode or occupation, add-on without
 * occupation) and a `RangeError` for an invalid date; the service validates the client's request first.
 */
export function calculatePrivateLiability(
  catalog: PrivateLiabilityCatalog,
  request: PrivateLiabilityRequest,
  calculationDate: Instant,
): PrivateLiabilityResult {
  assertValidRequest(request);
  const facts: RequestFacts = {
    request,
    household: householdOf(request),
    age: policyholderAge(request, calculationDate),
    civilServant: civilServantInHousehold(request),
    wishes: serviceLiabilityWishes(request).map((wish) => ({
      wish,
      group: catalog.occupation_groups.find((candidate) => candidate.occupations.includes(wish.occupation)),
    })),
  };
  const success: Tariff[] = [];
  const errors: Refusal[] = [];
  for (const provider of catalog.providers) {
    for (const product of provider.products) {
      const outcome = calculateProduct(catalog, provider, product, facts);
      if ('reasons' in outcome) errors.push(outcome);
      else success.push(outcome);
    }
  }
  success.sort(
    (a, b) =>
      a.premium.paid_per_year_cents - b.premium.paid_per_year_cents ||
      compareCodeUnits(a.origin_id, b.origin_id),
  );
  errors.sort((a, b) => compareCodeUnits(a.id, b.id));
  return { catalog_version: catalog.version, success, errors };
}

/** Locale-independent string order. */
function compareCodeUnits(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

function calculateProduct(
  catalog: PrivateLiabilityCatalog,
  provider: PrivateLiabilityProvider,
  product: PrivateLiabilityProduct,
  facts: RequestFacts,
): Tariff | Refusal {
  const refusals: [RefusalReason, string][] = [];
  const mode = facts.request.desired_payment_mode;

  const firstBand = product.age_bands[0];
  const lastBand = product.age_bands[product.age_bands.length - 1];
  const band = product.age_bands.find(
    (candidate) => candidate.min_age <= facts.age && facts.age <= candidate.max_age,
  );
  const base = band?.premiums_net_cents[facts.household] ?? null;
  if (band === undefined) {
    refusals.push([
      'age_out_of_range',
      `The policyholder's age of ${facts.age} years is outside the product's range of ${firstBand.min_age} to ${lastBand.max_age} years.`,
    ]);
  } else if (base === null) {
    refusals.push([
      'household_not_offered',
      `The household type "${HOUSEHOLD_LABELS[facts.household]}" (${facts.household}) is not offered for policyholders aged ${band.min_age} to ${band.max_age}.`,
    ]);
  }

  const paymentSurchargeBp = product.payment_mode_surcharges_bp[mode];
  if (paymentSurchargeBp === undefined) {
    const offered = PAYMENT_MODES.filter(
      (offer) => product.payment_mode_surcharges_bp[offer] !== undefined,
    ).join(', ');
    refusals.push(['payment_mode_not_offered', `Payment mode ${mode} is not offered (offered: ${offered}).`]);
  }

  const addOns: AddOn[] = [];
  const terms = product.civil_service_liability;
  if (facts.wishes.length > 0 && terms === null) {
    refusals.push([
      'civil_service_liability_not_offered',
      'Service liability (Diensthaftpflicht) is not offered in this product.',
    ]);
  } else if (terms !== null) {
    for (const { wish, group } of facts.wishes) {
      const price = group && terms.groups.find((candidate) => candidate.group === group.id);
      if (group === undefined || price === undefined) {
        refusals.push([
          'occupation_not_insurable',
          `The occupation ${wish.occupation} (${wish.person}) is not insurable for service liability (Diensthaftpflicht) in this product.`,
        ]);
      } else {
        addOns.push({ wish, group, price });
      }
    }
  }

  const damageFree = facts.request.previous_insurance.damage_free;
  if (!damageFree && product.prior_damage.handling === 'underwriting') {
    refusals.push([
      'prior_damage_underwriting',
      'Prior damages: acceptance only after individual underwriting (Annahme nur nach Risikoprüfung); no premium could be determined.',
    ]);
  } else if (!damageFree && product.prior_damage.handling === 'refuse') {
    refusals.push([
      'prior_damage_refused',
      'Prior damages: the product does not accept applicants with prior damages.',
    ]);
  }

  if (refusals.length > 0 || band === undefined || base === null || paymentSurchargeBp === undefined) {
    return {
      title: provider.name,
      sub_title: product.name,
      product: catalog.line_of_business,
      id: product.id,
      messages: refusals.map(([, message]) => message),
      reasons: refusals.map(([reason]) => reason),
    };
  }

  const premium = priceProduct(catalog, product, facts, base, addOns, paymentSurchargeBp, {
    min_age: band.min_age,
    max_age: band.max_age,
  });
  return {
    name: product.name,
    origin_id: product.id,
    provider: { name: provider.name, origin_id: provider.id },
    payment_mode: mode,
    fees: [
      {
        amount: { amount: formatCents(premium.instalment_cents), currency: catalog.currency },
        payment_mode: mode,
        taxes: [{ type: 'percent', amount: basisPointsToPercent(catalog.insurance_tax_bp) }],
      },
    ],
    premium,
    product_attributes: {
      product_line: product.line,
      household: facts.household,
      coverage_sum_eur: product.coverage_sum_eur,
      deductible_eur: product.deductible_eur,
      benefits: benefitAttributes(product),
      civil_service_liability:
        terms === null || addOns.length === 0
          ? null
          : { coverage_sum_eur: terms.coverage_sum_eur, insured: addOns.map(insuredServiceLiability) },
    },
  };
}

/** The pricing steps, in the order of the README; each step rounds half up to whole cents. */
function priceProduct(
  catalog: PrivateLiabilityCatalog,
  product: PrivateLiabilityProduct,
  facts: RequestFacts,
  base: number,
  addOns: readonly AddOn[],
  paymentSurchargeBp: number,
  ageBand: PremiumBreakdown['age_band'],
): PremiumBreakdown {
  const civilServantBp = facts.civilServant ? product.civil_servant_discount_bp : 0;
  const civilServantDiscount = percentOf(base, civilServantBp);
  let net = base - civilServantDiscount;

  const serviceLiability = addOns.reduce((sum, addOn) => sum + addOn.price.add_on_net_cents, 0);
  net += serviceLiability;

  const { damage_free: damageFree, pre_insured: preInsured } = facts.request.previous_insurance;
  const priorDamageBp =
    !damageFree && product.prior_damage.handling === 'surcharge' ? product.prior_damage.surcharge_bp : 0;
  const priorDamageSurcharge = percentOf(net, priorDamageBp);
  net += priorDamageSurcharge;

  const preInsurance = product.pre_insurance_discount;
  const preInsuranceBp =
    preInsured && preInsurance !== null && (damageFree || !preInsurance.requires_damage_free)
      ? preInsurance.discount_bp
      : 0;
  const preInsuranceDiscount = percentOf(net, preInsuranceBp);
  net -= preInsuranceDiscount;

  const paymentSurcharge = percentOf(net, paymentSurchargeBp);
  const taxable = net + paymentSurcharge;
  const tax = percentOf(taxable, catalog.insurance_tax_bp);
  const gross = taxable + tax;
  const instalments = INSTALMENTS_PER_YEAR[facts.request.desired_payment_mode];
  const instalment = divideRoundHalfUp(gross, instalments);

  return {
    household: facts.household,
    policyholder_age: facts.age,
    age_band: ageBand,
    base_net_cents: base,
    civil_servant_discount_bp: civilServantBp,
    civil_servant_discount_cents: civilServantDiscount,
    civil_service_liability_cents: serviceLiability,
    prior_damage_surcharge_bp: priorDamageBp,
    prior_damage_surcharge_cents: priorDamageSurcharge,
    pre_insurance_discount_bp: preInsuranceBp,
    pre_insurance_discount_cents: preInsuranceDiscount,
    net_cents: net,
    payment_mode_surcharge_bp: paymentSurchargeBp,
    payment_mode_surcharge_cents: paymentSurcharge,
    taxable_net_cents: taxable,
    insurance_tax_bp: catalog.insurance_tax_bp,
    insurance_tax_cents: tax,
    gross_cents: gross,
    instalments_per_year: instalments,
    instalment_cents: instalment,
    paid_per_year_cents: instalment * instalments,
  };
}

type BenefitAttributes = Readonly<Record<BenefitId, Readonly<BenefitAttribute>>>;

/** Each (frozen) catalog product's benefit attributes, made once: the same frozen object in all its tariffs. */
const benefitAttributesOfProduct = new WeakMap<PrivateLiabilityProduct, BenefitAttributes>();

function benefitAttributes(product: PrivateLiabilityProduct): BenefitAttributes {
  let attributes = benefitAttributesOfProduct.get(product);
  if (attributes === undefined) {
    attributes = Object.freeze(
      Object.fromEntries(
        BENEFIT_IDS.map((benefit) => {
          const value = product.benefits[benefit];
          return [
            benefit,
            Object.freeze({ covered: value !== false, sum_eur: typeof value === 'number' ? value : null }),
          ];
        }),
      ) as Record<BenefitId, BenefitAttribute>,
    );
    benefitAttributesOfProduct.set(product, attributes);
  }
  return attributes;
}

function insuredServiceLiability(addOn: AddOn): InsuredServiceLiability {
  return {
    person: addOn.wish.person,
    occupation: addOn.wish.occupation,
    occupation_group: addOn.group.id,
    occupation_group_name: addOn.group.name,
    add_on_net_cents: addOn.price.add_on_net_cents,
    school_key_loss: addOn.group.school_key_loss,
    school_key_loss_sum_eur: addOn.group.school_key_loss
      ? (addOn.price.school_key_loss_sum_eur ?? null)
      : null,
  };
}
