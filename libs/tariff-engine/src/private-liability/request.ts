import { ageAt, type Instant } from '../calendar.js';
import { type CivilServiceOccupation, isCivilServiceOccupation } from './occupations.js';
import { isPaymentMode, type PaymentMode } from './payment-mode.js';

/** An insured adult as the engine sees it (policyholder or partner). */
export interface InsuredAdult {
  readonly civil_servant: boolean;
  /** Whether a service-liability (Diensthaftpflicht) add-on is wanted for this person. Default false. */
  readonly include_civil_service_liability?: boolean;
  /** Required when `include_civil_service_liability` is true; ignored otherwise. */
  readonly civil_service_occupation?: CivilServiceOccupation | null;
}

export interface InsuredPartner extends InsuredAdult {
  /** Optional; not tariff-relevant (age bands follow the policyholder). */
  readonly birthdate?: Instant | null;
}

/**
 * The normalised private-liability request: the service validates the client's JSON, normalises the payment
 * mode and replaces the two previous-insurance flags with `previous_insurance`, then passes this.
 */
export interface PrivateLiabilityRequest {
  readonly policyholder: {
    /** Epoch seconds (as the API sends it) or a `Date`; read as a calendar date in Europe/Berlin. */
    readonly birthdate: Instant;
  };
  readonly subject_matter: {
    readonly policyholder: InsuredAdult;
    /** Present when a partner is co-insured. */
    readonly partner?: InsuredPartner | null;
    readonly include_children: boolean;
  };
  readonly previous_insurance: {
    /** A previous private-liability contract exists (Vorversicherung). */
    readonly pre_insured: boolean;
    /** No prior damages (Vorschäden): the negation of the request's `previous_damages_exist`. */
    readonly damage_free: boolean;
  };
  readonly desired_payment_mode: PaymentMode;
}

/** Household types (Tarifgruppen) the catalog prices. */
export const HOUSEHOLD_TYPES = ['single', 'couple', 'single_parent', 'family'] as const;

export type HouseholdType = (typeof HOUSEHOLD_TYPES)[number];

/** Display texts of the household types. */
export const HOUSEHOLD_LABELS: Readonly<Record<HouseholdType, string>> = {
  single: 'Single',
  couple: 'Paar ohne Kinder',
  single_parent: 'Alleinerziehend mit Kindern',
  family: 'Familie mit Kindern',
};

/** single: neither partner nor children; couple: partner only; single_parent: children only; family: both. */
export function householdOf(request: PrivateLiabilityRequest): HouseholdType {
  const partner = request.subject_matter.partner != null;
  const children = request.subject_matter.include_children;
  if (partner) return children ? 'family' : 'couple';
  return children ? 'single_parent' : 'single';
}

/** The policyholder's age in completed years on the calculation date (calendar dates in Europe/Berlin). */
export function policyholderAge(request: PrivateLiabilityRequest, calculationDate: Instant): number {
  return ageAt(request.policyholder.birthdate, calculationDate);
}

/** Who asks for a service-liability add-on. */
export type InsuredRole = 'policyholder' | 'partner';

export interface ServiceLiabilityWish {
  readonly person: InsuredRole;
  readonly occupation: CivilServiceOccupation;
}

/** The add-ons asked for, policyholder first. */
export function serviceLiabilityWishes(request: PrivateLiabilityRequest): ServiceLiabilityWish[] {
  const wishes: ServiceLiabilityWish[] = [];
  const people: [InsuredRole, InsuredAdult | null | undefined][] = [
    ['policyholder', request.subject_matter.policyholder],
    ['partner', request.subject_matter.partner],
  ];
  for (const [person, adult] of people) {
    if (adult?.include_civil_service_liability === true && adult.civil_service_occupation != null) {
      wishes.push({ person, occupation: adult.civil_service_occupation });
    }
  }
  return wishes;
}

/** True when the policyholder or the co-insured partner is a civil servant (Beamtentarif). */
export function civilServantInHousehold(request: PrivateLiabilityRequest): boolean {
  return (
    request.subject_matter.policyholder.civil_servant ||
    request.subject_matter.partner?.civil_servant === true
  );
}

/**
 * Throws a `TypeError` for a request the service should never have passed on (the service validates the
 * client's JSON first): unknown payment mode, unknown occupation, add-on without occupation, missing flags.
 */
export function assertValidRequest(request: PrivateLiabilityRequest): void {
  const problems: string[] = [];
  if (!isPaymentMode(request.desired_payment_mode)) {
    problems.push(
      `desired_payment_mode ${JSON.stringify(request.desired_payment_mode)} is not a payment mode`,
    );
  }
  if (typeof request.subject_matter.include_children !== 'boolean') {
    problems.push('subject_matter.include_children must be a boolean');
  }
  const { pre_insured, damage_free } = request.previous_insurance;
  if (typeof pre_insured !== 'boolean' || typeof damage_free !== 'boolean') {
    problems.push('previous_insurance.pre_insured and previous_insurance.damage_free must be booleans');
  }
  const people: [InsuredRole, InsuredAdult | null | undefined][] = [
    ['policyholder', request.subject_matter.policyholder],
    ['partner', request.subject_matter.partner],
  ];
  for (const [person, adult] of people) {
    if (adult == null) {
      if (person === 'policyholder') problems.push('subject_matter.policyholder is required');
      continue;
    }
    if (typeof adult.civil_servant !== 'boolean') {
      problems.push(`subject_matter.${person}.civil_servant must be a boolean`);
    }
    if (
      adult.include_civil_service_liability === true &&
      !isCivilServiceOccupation(adult.civil_service_occupation)
    ) {
      problems.push(
        `subject_matter.${person}.civil_service_occupation must be one of the civil-service occupations when include_civil_service_liability is true`,
      );
    }
  }
  if (problems.length > 0) throw new TypeError(`Invalid private-liability request: ${problems.join('; ')}`);
}
