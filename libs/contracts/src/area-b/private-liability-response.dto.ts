import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import {
  BENEFIT_IDS,
  BENEFIT_LABELS,
  type BenefitId,
  type CivilServiceOccupation,
  HOUSEHOLD_TYPES,
  type HouseholdType,
  PAYMENT_MODES,
  type PaymentMode,
  PRODUCT_LINES,
  type ProductLine,
} from '@broker/tariff-engine';
import { NULL_ALTERNATIVE } from '../openapi-null.js';
import { CIVIL_SERVICE_OCCUPATION_SCHEMA, SEXES, type Sex } from './private-liability-request.dto.js';

/*
 * The response of POST /api/v1/calculate/private-liability. These classes are the response's TypeScript
 * types and, through their @ApiProperty decorators, its OpenAPI schemas; the service builds plain objects of
 * these shapes.
 */

/** A schema or null (OpenAPI 3.0: null as an alternative of its own). */
const orNull = (schema: object) => ({ oneOf: [schema, NULL_ALTERNATIVE] });

/** A component of a class (listed in @ApiExtraModels of the class using it), or null. */
const modelOrNull = (model: new () => object) => orNull({ $ref: getSchemaPath(model) });

const occupation = () => orNull({ $ref: `#/components/schemas/${CIVIL_SERVICE_OCCUPATION_SCHEMA}` });

export class MoneyAmountView {
  @ApiProperty({ description: 'Decimal amount with two decimals', example: '5.21' })
  amount!: string;

  @ApiProperty({ enum: ['EUR'] })
  currency!: 'EUR';
}

export class FeeTaxView {
  @ApiProperty({ enum: ['percent'] })
  type!: 'percent';

  @ApiProperty({ example: 19 })
  amount!: number;
}

export class FeeView {
  @ApiProperty({ type: MoneyAmountView, description: 'The instalment per payment period, tax included' })
  amount!: MoneyAmountView;

  @ApiProperty({ enum: PAYMENT_MODES })
  payment_mode!: PaymentMode;

  @ApiProperty({ type: [FeeTaxView] })
  taxes!: readonly FeeTaxView[];
}

export class ProviderView {
  @ApiProperty()
  name!: string;

  @ApiProperty()
  origin_id!: string;
}

export class InsuredAdultView {
  @ApiProperty()
  civil_servant!: boolean;

  @ApiProperty()
  include_civil_service_liability!: boolean;

  @ApiProperty(occupation())
  civil_service_occupation!: CivilServiceOccupation | null;
}

export class InsuredPartnerView extends InsuredAdultView {
  @ApiProperty({ type: 'integer', format: 'int64', nullable: true, description: 'Epoch seconds' })
  birthdate!: number | null;
}

export class PolicyholderParametersView {
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Epoch seconds' })
  birthdate!: number;

  @ApiProperty({ type: 'string', enum: [...SEXES, null], nullable: true })
  sex!: Sex | null;

  @ApiProperty({ nullable: true, type: String })
  name!: string | null;

  @ApiProperty({ nullable: true, type: String })
  first_name!: string | null;

  @ApiProperty({ nullable: true, type: String })
  last_name!: string | null;
}

@ApiExtraModels(InsuredPartnerView)
export class SubjectMatterParametersView {
  @ApiProperty({ type: InsuredAdultView })
  policyholder!: InsuredAdultView;

  @ApiProperty(modelOrNull(InsuredPartnerView))
  partner!: InsuredPartnerView | null;

  @ApiProperty()
  include_children!: boolean;
}

export class PreviousInsuranceView {
  @ApiProperty({ description: 'No previous damages (the negation of previous_damages_exist)' })
  damage_free!: boolean;

  @ApiProperty({ description: 'A previous insurance exists (previous_insurance_exists)' })
  pre_insured!: boolean;
}

/** The request as the service understood it: normalised and completed with defaults. */
export class CalculationParametersView {
  @ApiProperty({ type: PolicyholderParametersView })
  policyholder!: PolicyholderParametersView;

  @ApiProperty({ type: SubjectMatterParametersView })
  subject_matter!: SubjectMatterParametersView;

  @ApiProperty({ type: PreviousInsuranceView })
  previous_insurance!: PreviousInsuranceView;

  @ApiProperty({ enum: PAYMENT_MODES })
  desired_payment_mode!: PaymentMode;
}

@ApiExtraModels(InsuredPartnerView)
export class ProductSubjectMatterView {
  @ApiProperty({ type: InsuredAdultView })
  policyholder!: InsuredAdultView;

  @ApiProperty({ description: 'Children are co-insured' })
  children!: boolean;

  @ApiProperty(modelOrNull(InsuredPartnerView))
  partner!: InsuredPartnerView | null;
}

export class BenefitView {
  @ApiProperty()
  covered!: boolean;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Sublimit in EUR; null when covered up to the coverage sum or not covered',
  })
  sum_eur!: number | null;
}

export class InsuredServiceLiabilityView {
  @ApiProperty({ enum: ['policyholder', 'partner'] })
  person!: 'policyholder' | 'partner';

  @ApiProperty({ allOf: [{ $ref: `#/components/schemas/${CIVIL_SERVICE_OCCUPATION_SCHEMA}` }] })
  occupation!: CivilServiceOccupation;

  @ApiProperty()
  occupation_group!: string;

  @ApiProperty()
  occupation_group_name!: string;

  @ApiProperty({ type: 'integer', description: 'Yearly net price of the add-on in cents' })
  add_on_net_cents!: number;

  @ApiProperty({ description: 'Loss of school or service keys is covered (teachers)' })
  school_key_loss!: boolean;

  @ApiProperty({ type: 'integer', nullable: true })
  school_key_loss_sum_eur!: number | null;
}

export class ServiceLiabilityView {
  @ApiProperty({ type: 'integer' })
  coverage_sum_eur!: number;

  @ApiProperty({ type: [InsuredServiceLiabilityView] })
  insured!: readonly InsuredServiceLiabilityView[];
}

@ApiExtraModels(BenefitView, ServiceLiabilityView)
export class ProductAttributesView {
  @ApiProperty({ enum: PRODUCT_LINES })
  product_line!: ProductLine;

  @ApiProperty({ enum: HOUSEHOLD_TYPES })
  household!: HouseholdType;

  @ApiProperty({ type: 'integer', description: 'Coverage sum (Deckungssumme) in EUR' })
  coverage_sum_eur!: number;

  @ApiProperty({ type: 'integer', description: 'Deductible (Selbstbeteiligung) in EUR per claim' })
  deductible_eur!: number;

  @ApiProperty({
    type: 'object',
    description: `The compared benefits by id: ${BENEFIT_IDS.map((id) => `${id} (${BENEFIT_LABELS[id]})`).join(', ')}`,
    additionalProperties: { $ref: getSchemaPath(BenefitView) },
  })
  benefits!: Readonly<Record<BenefitId, BenefitView>>;

  @ApiProperty(modelOrNull(ServiceLiabilityView))
  civil_service_liability!: ServiceLiabilityView | null;
}

/** A calculated tariff in the product model of the spec. */
export class TariffProductView {
  @ApiProperty({ type: ProductSubjectMatterView })
  subject_matter!: ProductSubjectMatterView;

  @ApiProperty({ description: 'A previous insurance exists' })
  previous_insurance!: boolean;

  @ApiProperty({ description: 'Previous damages exist' })
  previous_damage!: boolean;

  @ApiProperty()
  name!: string;

  @ApiProperty({ type: ProviderView })
  provider!: ProviderView;

  @ApiProperty({ type: String, nullable: true, description: 'Not part of this calculation: null' })
  duration!: string | null;

  @ApiProperty({ type: [FeeView] })
  fees!: readonly FeeView[];

  @ApiProperty({ type: ProductAttributesView })
  product_attributes!: ProductAttributesView;

  @ApiProperty()
  origin_id!: string;

  @ApiProperty({ type: String, nullable: true, description: 'Not part of this calculation: null' })
  insurance_commencement!: string | null;
}

export class OfferPolicyholderView {
  @ApiProperty({ type: 'integer', format: 'int64', nullable: true })
  birthdate!: number | null;

  @ApiProperty({ type: String, nullable: true })
  first_name!: string | null;

  @ApiProperty({ type: String, nullable: true })
  last_name!: string | null;

  @ApiProperty({ type: 'string', enum: [...SEXES, null], nullable: true })
  sex!: Sex | null;

  @ApiProperty({ type: Object, nullable: true, description: 'Not part of this calculation: null' })
  postal_address!: object | null;
}

/** An entry of calculation_result.success: one calculable tariff. */
export class TariffOfferView {
  @ApiProperty({ type: String, nullable: true })
  name!: string | null;

  @ApiProperty({ type: ProviderView, nullable: true })
  provider!: ProviderView | null;

  @ApiProperty({ type: String, nullable: true })
  duration!: string | null;

  @ApiProperty({ type: String, nullable: true })
  contract_commencement!: string | null;

  @ApiProperty({ type: OfferPolicyholderView, nullable: true })
  policyholder!: OfferPolicyholderView | null;

  @ApiProperty({ type: [TariffProductView] })
  products!: readonly TariffProductView[];
}

/** An entry of calculation_result.errors: a product that cannot be calculated for this request. */
export class ProductRefusalView {
  @ApiProperty({ description: 'Provider name' })
  title!: string;

  @ApiProperty({ description: 'Product name' })
  sub_title!: string;

  @ApiProperty({ description: 'Line of business, e.g. Privathaftpflicht' })
  product!: string;

  @ApiProperty({ description: 'Product id (origin_id)' })
  id!: string;

  @ApiProperty({ type: [String], description: 'Why the product cannot be calculated' })
  messages!: readonly string[];
}

export class CalculationResultView {
  @ApiProperty({ type: [TariffOfferView], description: 'Cheapest yearly payment first' })
  success!: readonly TariffOfferView[];

  @ApiProperty({ type: [ProductRefusalView] })
  errors!: readonly ProductRefusalView[];

  @ApiProperty({ description: 'Version of the tariff catalog the result was calculated with' })
  catalog_version!: string;
}

export class PrivateLiabilityCalculationResponse {
  @ApiProperty({ type: CalculationParametersView })
  calculation_parameters!: CalculationParametersView;

  @ApiProperty({ type: CalculationResultView })
  calculation_result!: CalculationResultView;
}
