import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  type ValidationArguments,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import {
  CIVIL_SERVICE_OCCUPATIONS,
  type CivilServiceOccupation,
  normalisePaymentMode,
  PAYMENT_MODES,
  PAYMENT_MODE_SPELLINGS,
  type PaymentMode,
} from '@broker/tariff-engine';

/** The spec's name (and spelling) of the schema component that lists the occupations. */
export const CIVIL_SERVICE_OCCUPATION_SCHEMA = 'CivilServiceOccuption';

/** Values of `policyholder.sex` (the spec shows only `female`). */
export const SEXES = ['female', 'male', 'diverse'] as const;

export type Sex = (typeof SEXES)[number];

/** Birth dates before this are refused as implausible (1900-01-01T00:00:00Z, epoch seconds). */
export const EARLIEST_BIRTHDATE = -2_208_988_800;

/** Applied when the request leaves them out; echoed in `calculation_parameters`. */
export const PRIVATE_LIABILITY_DEFAULTS = {
  include_children: false,
  include_civil_service_liability: false,
  previous_insurance_exists: false,
  previous_damages_exist: false,
  desired_payment_mode: 'yearly',
} as const satisfies Record<string, boolean | PaymentMode>;

/**
 * A pattern of the words in any letter case, umlauts composed or not (JSON Schema patterns take no flags; the
 * service compares the NFC form in lower case).
 */
function inAnyCase(words: readonly string[]): string {
  const letter = (character: string) => {
    const cases = `${character.toLowerCase()}${character.toUpperCase()}`;
    if (cases[0] === cases[1]) return character.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const base = character.normalize('NFD');
    return base.length > 1
      ? `(?:[${cases}]|[${base[0].toLowerCase()}${base[0].toUpperCase()}]${base.slice(1)})`
      : `[${cases}]`;
  };
  return `^(?:${words.map((word) => [...word].map(letter).join('')).join('|')})$`;
}

const EPOCH_SECONDS = 'an integer number of seconds since 1970-01-01T00:00:00Z';

/** Epoch seconds of a birth date: a whole number, not before 1900, not in the future; one message each. */
function IsBirthdate(required: boolean): PropertyDecorator {
  const requirement = required ? 'is required and must be' : 'must be';
  const validation = ValidateBy({
    name: 'isBirthdate',
    validator: {
      validate: (value: unknown) =>
        Number.isSafeInteger(value) &&
        (value as number) >= EARLIEST_BIRTHDATE &&
        (value as number) <= Date.now() / 1000,
      defaultMessage: ({ property, value }: ValidationArguments) => {
        if (!Number.isSafeInteger(value)) return `${property} ${requirement} ${EPOCH_SECONDS}`;
        return (value as number) < EARLIEST_BIRTHDATE
          ? `${property} must not be before 1900-01-01`
          : `${property} must not be in the future`;
      },
    },
  });
  const schema = JSONSchema({
    type: 'integer',
    format: 'int64',
    minimum: EARLIEST_BIRTHDATE,
    description: `Birth date as ${EPOCH_SECONDS}, read as a calendar date in Europe/Berlin; not in the future`,
    example: 482_716_800,
  });
  return (target, property) => {
    validation(target, property);
    schema(target, property as string);
  };
}

/** The occupation component by reference, so the OpenAPI description lists the values once, by the spec's name. */
const occupationReference = () => ({ $ref: `#/components/schemas/${CIVIL_SERVICE_OCCUPATION_SCHEMA}` });

/** An insured adult: the policyholder or the partner as insured person. */
export class InsuredAdultRequest {
  @IsBoolean({ message: '$property is required and must be a boolean' })
  civil_servant!: boolean;

  @IsOptional()
  @IsBoolean()
  include_civil_service_liability?: boolean;

  /** Required when include_civil_service_liability is true; checked whenever it is given. */
  @ValidateIf(
    (adult: InsuredAdultRequest) =>
      adult.include_civil_service_liability === true || adult.civil_service_occupation != null,
  )
  @IsIn(CIVIL_SERVICE_OCCUPATIONS, {
    message: `$property is required when include_civil_service_liability is true and must be one of: ${CIVIL_SERVICE_OCCUPATIONS.join(', ')}`,
  })
  @JSONSchema(occupationReference)
  civil_service_occupation?: CivilServiceOccupation | null;
}

export class InsuredPartnerRequest extends InsuredAdultRequest {
  @IsOptional()
  @IsBirthdate(false)
  birthdate?: number;
}

export class SubjectMatterRequest {
  @IsObject({ message: '$property is required and must be an object' })
  @ValidateNested()
  @Type(() => InsuredAdultRequest)
  policyholder!: InsuredAdultRequest;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => InsuredPartnerRequest)
  partner?: InsuredPartnerRequest | null;

  @IsOptional()
  @IsBoolean()
  include_children?: boolean;
}

/** General data of the policyholder. */
export class PolicyholderRequest {
  @IsBirthdate(true)
  birthdate!: number;

  @IsOptional()
  @IsIn(SEXES)
  sex?: Sex;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  first_name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  last_name?: string;
}

/** POST /api/v1/calculate/private-liability */
export class PrivateLiabilityCalculationRequest {
  @IsObject({ message: '$property is required and must be an object' })
  @ValidateNested()
  @Type(() => PolicyholderRequest)
  policyholder!: PolicyholderRequest;

  @IsObject({ message: '$property is required and must be an object' })
  @ValidateNested()
  @Type(() => SubjectMatterRequest)
  subject_matter!: SubjectMatterRequest;

  @IsOptional()
  @IsBoolean()
  previous_insurance_exists?: boolean;

  @IsOptional()
  @IsBoolean()
  previous_damages_exist?: boolean;

  /** Normalised on the way in: German spellings and any letter case become the English value. */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => normalisePaymentMode(value) ?? value)
  @IsIn(PAYMENT_MODES, {
    message: `$property must be one of: ${PAYMENT_MODE_SPELLINGS.join(', ')}`,
  })
  // In place of IsIn's enum, which names only the values the spellings are normalised to; null is the default.
  @JSONSchema(({ nullable }) => ({
    type: 'string',
    nullable,
    pattern: inAnyCase(PAYMENT_MODE_SPELLINGS),
    description: `One of ${PAYMENT_MODE_SPELLINGS.join(', ')}, in any letter case`,
  }))
  desired_payment_mode?: PaymentMode;
}
