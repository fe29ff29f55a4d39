import type {
  CalculationParametersView,
  PrivateLiabilityCalculationResponse,
  ProductRefusalView,
  TariffOfferView,
} from '@broker/contracts';
import type { PrivateLiabilityResult, Refusal, Tariff } from '@broker/tariff-engine';

/** A calculated tariff in the spec's success entry and product structure. */
function tariffOffer(tariff: Tariff, parameters: CalculationParametersView): TariffOfferView {
  const { policyholder, subject_matter: subject, previous_insurance: previous } = parameters;
  return {
    name: tariff.name,
    provider: tariff.provider,
    duration: null,
    contract_commencement: null,
    policyholder: {
      birthdate: policyholder.birthdate,
      first_name: policyholder.first_name,
      last_name: policyholder.last_name ?? policyholder.name,
      sex: policyholder.sex,
      postal_address: null,
    },
    products: [
      {
        subject_matter: {
          policyholder: subject.policyholder,
          children: subject.include_children,
          partner: subject.partner,
        },
        previous_insurance: previous.pre_insured,
        previous_damage: !previous.damage_free,
        name: tariff.name,
        provider: tariff.provider,
        duration: null,
        fees: tariff.fees,
        product_attributes: tariff.product_attributes,
        origin_id: tariff.origin_id,
        insurance_commencement: null,
      },
    ],
  };
}

/** The spec's error entry; the engine's reason codes stay inside the service. */
function productRefusal(refusal: Refusal): ProductRefusalView {
  return {
    title: refusal.title,
    sub_title: refusal.sub_title,
    product: refusal.product,
    id: refusal.id,
    messages: refusal.messages,
  };
}

export function calculationResponse(
  parameters: CalculationParametersView,
  result: PrivateLiabilityResult,
): PrivateLiabilityCalculationResponse {
  return {
    calculation_parameters: parameters,
    calculation_result: {
      success: result.success.map((tariff) => tariffOffer(tariff, parameters)),
      errors: result.errors.map(productRefusal),
      catalog_version: result.catalog_version,
    },
  };
}
