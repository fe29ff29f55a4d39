import type {
  CalculationParametersView,
  OfferPolicyholderView,
  PrivateLiabilityCalculationResponse,
  ProductRefusalView,
  ProductSubjectMatterView,
  TariffOfferView,
} from '@broker/contracts';
import type { PrivateLiabilityResult, Refusal, Tariff } from '@broker/tariff-engine';
import { JsonTemplate, JsonWriter } from '../json-template.js';

/** What every success entry of one response takes from the request. */
export interface OfferRequestPart {
  readonly policyholder: OfferPolicyholderView;
  readonly subject_matter: ProductSubjectMatterView;
  readonly previous_insurance: boolean;
  readonly previous_damage: boolean;
}

export function offerRequestPart(parameters: CalculationParametersView): OfferRequestPart {
  const { policyholder, subject_matter: subject, previous_insurance: previous } = parameters;
  return {
    policyholder: {
      birthdate: policyholder.birthdate,
      first_name: policyholder.first_name,
      last_name: policyholder.last_name ?? policyholder.name,
      sex: policyholder.sex,
      postal_address: null,
    },
    subject_matter: {
      policyholder: subject.policyholder,
      children: subject.include_children,
      partner: subject.partner,
    },
    previous_insurance: previous.pre_insured,
    previous_damage: !previous.damage_free,
  };
}

/** A calculated tariff in the spec's success entry and product structure. */
export function tariffOffer(tariff: Tariff, request: OfferRequestPart): TariffOfferView {
  return {
    name: tariff.name,
    provider: tariff.provider,
    duration: null,
    contract_commencement: null,
    policyholder: request.policyholder,
    products: [
      {
        subject_matter: request.subject_matter,
        previous_insurance: request.previous_insurance,
        previous_damage: request.previous_damage,
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
export function productRefusal(refusal: Refusal): ProductRefusalView {
  return {
    title: refusal.title,
    sub_title: refusal.sub_title,
    product: refusal.product,
    id: refusal.id,
    messages: refusal.messages,
  };
}

type ResponseHole = 'parameters' | 'success' | 'errors' | 'catalog_version';

const RESPONSE = JsonTemplate.compile<ResponseHole>((hole): PrivateLiabilityCalculationResponse => ({
  calculation_parameters: hole('parameters'),
  calculation_result: {
    success: hole('success'),
    errors: hole('errors'),
    catalog_version: hole('catalog_version'),
  },
}));

/** The parts of a success entry that change with the request or the price; the rest is the product's. */
type OfferHole = keyof OfferRequestPart | 'fees' | 'household' | 'civil_service_liability';

/**
 * Writes the response JSON (UTF-8), byte for byte what `JSON.stringify` gives for the views above. A success
 * entry is about 2 KB of which only the fee, the household and the service-liability add-on depend on the
 * calculation (and a few fields on the request): the rest, the product's name, provider and benefits, is
 * serialised once per product into a template.
 */
export class CalculationResponseWriter {
  /** By product id (origin_id), made from the product's first tariff. */
  private readonly offers = new Map<string, JsonTemplate<OfferHole>>();
  private readonly out = new JsonWriter();

  write(parameters: CalculationParametersView, result: PrivateLiabilityResult): Buffer {
    this.out.clear(); // what an answer that failed half-way left behind
    RESPONSE.writeTo(this.out, {
      parameters: JSON.stringify(parameters),
      success: (out) => this.writeOffers(out, offerRequestJson(offerRequestPart(parameters)), result.success),
      errors: JSON.stringify(result.errors.map(productRefusal)),
      catalog_version: JSON.stringify(result.catalog_version),
    });
    return this.out.finish();
  }

  private writeOffers(out: JsonWriter, request: OfferRequestJson, tariffs: readonly Tariff[]): void {
    out.write('[');
    tariffs.forEach((tariff, index) => {
      if (index > 0) out.write(',');
      // Every field spelled out: an object spread here costs more than serialising a fee.
      this.offerTemplate(tariff).writeTo(out, {
        policyholder: request.policyholder,
        subject_matter: request.subject_matter,
        previous_insurance: request.previous_insurance,
        previous_damage: request.previous_damage,
        fees: JSON.stringify(tariff.fees),
        household: JSON.stringify(tariff.product_attributes.household),
        civil_service_liability: JSON.stringify(tariff.product_attributes.civil_service_liability),
      });
    });
    out.write(']');
  }

  /** A tariff's name, provider and product attributes but household and add-on are its product's (engine). */
  private offerTemplate(tariff: Tariff): JsonTemplate<OfferHole> {
    let template = this.offers.get(tariff.origin_id);
    if (template === undefined) {
      template = JsonTemplate.compile<OfferHole>((hole) =>
        tariffOffer(
          {
            ...tariff,
            fees: hole('fees'),
            product_attributes: {
              ...tariff.product_attributes,
              household: hole('household'),
              civil_service_liability: hole('civil_service_liability'),
            },
          },
          {
            policyholder: hole('policyholder'),
            subject_matter: hole('subject_matter'),
            previous_insurance: hole('previous_insurance'),
            previous_damage: hole('previous_damage'),
          },
        ),
      );
      this.offers.set(tariff.origin_id, template);
    }
    return template;
  }
}

type OfferRequestJson = Readonly<Record<keyof OfferRequestPart, Buffer>>;

/** Encoded once per response, written into every entry. */
function offerRequestJson(request: OfferRequestPart): OfferRequestJson {
  return {
    policyholder: Buffer.from(JSON.stringify(request.policyholder)),
    subject_matter: Buffer.from(JSON.stringify(request.subject_matter)),
    previous_insurance: Buffer.from(JSON.stringify(request.previous_insurance)),
    previous_damage: Buffer.from(JSON.stringify(request.previous_damage)),
  };
}
