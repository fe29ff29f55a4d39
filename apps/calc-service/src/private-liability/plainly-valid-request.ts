import {
  EARLIEST_BIRTHDATE,
  type InsuredAdultRequest,
  type InsuredPartnerRequest,
  type PolicyholderRequest,
  type PrivateLiabilityCalculationRequest,
  SEXES,
  type SubjectMatterRequest,
} from '@broker/contracts';
import { isStorableText } from '@broker/errors';
import { isCivilServiceOccupation, normalisePaymentMode } from '@broker/tariff-engine';

/*
 * The rules of the request DTO (class-validator decorators in @broker/contracts) as plain checks, for the
 * common case of a request that breaks none of them: class-validator and class-transformer cost far more per
 * request than the calculation. Only acceptance is decided here; a body that fails any check goes through the
 * validation pipe, which names every failing field as before. So every check is at least as strict as its
 * decorator (a string of more than 200 UTF-16 units may still be valid and is left to the pipe).
 */

type JsonObject = Record<string, unknown>;

const MAX_TEXT_LENGTH = 200;
const SEX_VALUES: ReadonlySet<unknown> = new Set(SEXES);

const POLICYHOLDER_FIELDS = new Set(['birthdate', 'sex', 'name', 'first_name', 'last_name']);
const ADULT_FIELDS = new Set([
  'civil_servant',
  'include_civil_service_liability',
  'civil_service_occupation',
]);
const PARTNER_FIELDS = new Set([...ADULT_FIELDS, 'birthdate']);
const SUBJECT_MATTER_FIELDS = new Set(['policyholder', 'partner', 'include_children']);
const REQUEST_FIELDS = new Set([
  'policyholder',
  'subject_matter',
  'previous_insurance_exists',
  'previous_damages_exist',
  'desired_payment_mode',
]);

/** An object (not an array) with no fields but `fields` (the pipe refuses others). */
function isObjectWithOnly(value: unknown, fields: ReadonlySet<string>): value is JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const field in value) if (!fields.has(field)) return false;
  return true;
}

/** Optional fields may be absent or null (`@IsOptional`). */
function isAbsent(value: unknown): value is null | undefined {
  return value === null || value === undefined;
}

function isOptionalBoolean(value: unknown): boolean {
  return isAbsent(value) || typeof value === 'boolean';
}

/** Optional text: storable (the pipe checks that before the DTO) and at most 200 UTF-16 units. */
function isOptionalText(value: unknown): boolean {
  return (
    isAbsent(value) || (typeof value === 'string' && value.length <= MAX_TEXT_LENGTH && isStorableText(value))
  );
}

function isBirthdate(value: unknown, nowSeconds: number): boolean {
  return (
    Number.isSafeInteger(value) && (value as number) >= EARLIEST_BIRTHDATE && (value as number) <= nowSeconds
  );
}

function isPolicyholder(value: unknown, nowSeconds: number): value is PolicyholderRequest {
  return (
    isObjectWithOnly(value, POLICYHOLDER_FIELDS) &&
    isBirthdate(value.birthdate, nowSeconds) &&
    (isAbsent(value.sex) || SEX_VALUES.has(value.sex)) &&
    isOptionalText(value.name) &&
    isOptionalText(value.first_name) &&
    isOptionalText(value.last_name)
  );
}

/** The occupation is checked whenever it is given, and required with the add-on. */
function isAdult(value: JsonObject): boolean {
  const occupation = value.civil_service_occupation;
  const occupationChecked = value.include_civil_service_liability === true || !isAbsent(occupation);
  return (
    typeof value.civil_servant === 'boolean' &&
    isOptionalBoolean(value.include_civil_service_liability) &&
    (!occupationChecked || isCivilServiceOccupation(occupation))
  );
}

function isInsuredAdult(value: unknown): value is InsuredAdultRequest {
  return isObjectWithOnly(value, ADULT_FIELDS) && isAdult(value);
}

function isInsuredPartner(value: unknown, nowSeconds: number): value is InsuredPartnerRequest {
  return (
    isObjectWithOnly(value, PARTNER_FIELDS) &&
    isAdult(value) &&
    (isAbsent(value.birthdate) || isBirthdate(value.birthdate, nowSeconds))
  );
}

function isSubjectMatter(value: unknown, nowSeconds: number): value is SubjectMatterRequest {
  return (
    isObjectWithOnly(value, SUBJECT_MATTER_FIELDS) &&
    isInsuredAdult(value.policyholder) &&
    (isAbsent(value.partner) || isInsuredPartner(value.partner, nowSeconds)) &&
    isOptionalBoolean(value.include_children)
  );
}

/**
 * The request as the validation pipe would hand it on (payment mode normalised) when the body plainly keeps
 * every rule; otherwise undefined, and the pipe decides. The body is not changed. Birthdates are checked against
 * the clock, as the DTO checks them, not against a calculation date given from outside.
 */
export function plainlyValidRequest(body: unknown): PrivateLiabilityCalculationRequest | undefined {
  const nowSeconds = Date.now() / 1000;
  if (
    !isObjectWithOnly(body, REQUEST_FIELDS) ||
    !isPolicyholder(body.policyholder, nowSeconds) ||
    !isSubjectMatter(body.subject_matter, nowSeconds) ||
    !isOptionalBoolean(body.previous_insurance_exists) ||
    !isOptionalBoolean(body.previous_damages_exist)
  )
    return undefined;
  const mode = body.desired_payment_mode;
  if (isAbsent(mode)) return body as unknown as PrivateLiabilityCalculationRequest;
  const paymentMode = normalisePaymentMode(mode);
  if (paymentMode === undefined) return undefined;
  return { ...(body as unknown as PrivateLiabilityCalculationRequest), desired_payment_mode: paymentMode };
}
