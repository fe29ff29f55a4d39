import {
  type CalculationParametersView,
  type InsuredAdultView,
  type InsuredPartnerView,
  PRIVATE_LIABILITY_DEFAULTS,
  type InsuredAdultRequest,
  type InsuredPartnerRequest,
  type PrivateLiabilityCalculationRequest,
} from '@broker/contracts';
import type { PrivateLiabilityRequest } from '@broker/tariff-engine';

function insuredAdult(adult: InsuredAdultRequest): InsuredAdultView {
  const included =
    adult.include_civil_service_liability ?? PRIVATE_LIABILITY_DEFAULTS.include_civil_service_liability;
  return {
    civil_servant: adult.civil_servant,
    include_civil_service_liability: included,
    // An occupation without the add-on does not affect the price; it is echoed only with the add-on.
    civil_service_occupation: included ? (adult.civil_service_occupation ?? null) : null,
  };
}

function insuredPartner(partner: InsuredPartnerRequest): InsuredPartnerView {
  return { ...insuredAdult(partner), birthdate: partner.birthdate ?? null };
}

/**
 * The request as the service understands it: defaults filled in, the payment mode normalised (the DTO did
 * that), and the two previous-insurance flags replaced by `previous_insurance`.
 */
export function calculationParameters(
  request: PrivateLiabilityCalculationRequest,
): CalculationParametersView {
  const { policyholder, subject_matter: subject } = request;
  return {
    policyholder: {
      birthdate: policyholder.birthdate,
      sex: policyholder.sex ?? null,
      name: policyholder.name ?? null,
      first_name: policyholder.first_name ?? null,
      last_name: policyholder.last_name ?? null,
    },
    subject_matter: {
      policyholder: insuredAdult(subject.policyholder),
      partner: subject.partner ? insuredPartner(subject.partner) : null,
      include_children: subject.include_children ?? PRIVATE_LIABILITY_DEFAULTS.include_children,
    },
    previous_insurance: {
      damage_free: !(request.previous_damages_exist ?? PRIVATE_LIABILITY_DEFAULTS.previous_damages_exist),
      pre_insured: request.previous_insurance_exists ?? PRIVATE_LIABILITY_DEFAULTS.previous_insurance_exists,
    },
    desired_payment_mode: request.desired_payment_mode ?? PRIVATE_LIABILITY_DEFAULTS.desired_payment_mode,
  };
}

/** What the tariff engine is given: exactly the understood parameters. */
export function engineRequest(parameters: CalculationParametersView): PrivateLiabilityRequest {
  return {
    policyholder: { birthdate: parameters.policyholder.birthdate },
    subject_matter: parameters.subject_matter,
    previous_insurance: parameters.previous_insurance,
    desired_payment_mode: parameters.desired_payment_mode,
  };
}
