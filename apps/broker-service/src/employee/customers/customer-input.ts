import { type KundeInput, type KundePersonInput, type PersonType } from '@broker/contracts';
import { DateParseError, parseDate, todayIn } from '@broker/datetime';
import { DomainError } from '@broker/errors';
import { updatedText } from '../input-text.js';
import type { CustomerFields } from './customer.repository.js';

const NATURAL_ONLY = ['Titel', 'Vorname', 'Nachname', 'Geburtsdatum', 'Beruf', 'Fachrichtung'] as const;
const LEGAL_ONLY = ['Firma', 'Ansprechpartner', 'Gruendungsdatum', 'Branche'] as const;

const text = updatedText;

/** A date field as sent, applied to the stored value; `past`: a date of birth or founding, not after today. */
function date(
  field: string,
  given: string | null | undefined,
  stored: string | null,
  zone: string | undefined,
  past = false,
) {
  const value = text(given, stored);
  if (value === null || given === undefined) return value;
  let parsed: string;
  try {
    parsed = parseDate(value, zone);
  } catch (error) {
    if (error instanceof DateParseError) throw DomainError.validation([`${field} "${given}" is not a date`]);
    throw error;
  }
  if (past && parsed > todayIn(zone)) throw DomainError.validation([`${field} "${given}" is in the future`]);
  return parsed;
}

/** The person fields that do not belong to the person type are refused rather than silently dropped. */
function checkPersonFields(person: KundePersonInput, type: PersonType): string[] {
  const foreign = type === 'natuerlich' ? LEGAL_ONLY : NATURAL_ONLY;
  const kind = type === 'natuerlich' ? 'natural' : 'legal';
  return foreign
    .filter((field) => person[field] !== undefined && person[field] !== null && person[field] !== '')
    .map((field) => `Person.${field} is not a field of a ${kind} person`);
}

export const EMPTY_CUSTOMER: CustomerFields = {
  salutation: null,
  perDu: false,
  deceased: false,
  relationshipEndedOn: null,
  userName: null,
  personType: 'natuerlich',
  title: null,
  firstName: null,
  lastName: null,
  birthDate: null,
  occupation: null,
  specialty: null,
  companyName: null,
  contactPerson: null,
  foundingDate: null,
  industry: null,
  notifyUserName: false,
  notifyPasswordLink: false,
  suppressInitialInfo: false,
};

/**
 * A Kunde as sent, applied to the stored fields (none for a new one): absent fields keep their value, null and
 * empty strings clear. The result must name a natural person with a last name or a legal person with a
 * company name (the required fields of a customer).
 */
export function applyKundeInput(
  input: KundeInput,
  stored: CustomerFields | undefined,
  zone: string | undefined,
): CustomerFields {
  if (!stored && !input.Person) throw DomainError.validation(['Person is required']);
  if (!stored && !input.Person?.Typ) throw DomainError.validation(['Person.Typ is required']);
  const person = input.Person ?? {};
  const type = person.Typ ?? stored?.personType ?? 'natuerlich';
  const problems = checkPersonFields(person, type);
  if (problems.length > 0) throw DomainError.validation(problems);
  return completed(input, person, type, stored ?? EMPTY_CUSTOMER, zone);
}

function completed(
  input: KundeInput,
  person: KundePersonInput,
  type: PersonType,
  stored: CustomerFields,
  zone: string | undefined,
): CustomerFields {
  const natural = type === 'natuerlich';
  const notify = input.Mitteilungen;
  const fields: CustomerFields = {
    salutation: input.Anrede === undefined ? stored.salutation : input.Anrede,
    perDu: input.PerDu ?? stored.perDu,
    deceased: input.Verstorben ?? stored.deceased,
    relationshipEndedOn: date(
      'KundenbeziehungBeendetAm',
      input.KundenbeziehungBeendetAm,
      stored.relationshipEndedOn,
      zone,
    ),
    userName: input.Benutzername ?? stored.userName,
    personType: type,
    title: natural ? text(person.Titel, stored.title) : null,
    firstName: natural ? text(person.Vorname, stored.firstName) : null,
    lastName: natural ? text(person.Nachname, stored.lastName) : null,
    birthDate: natural
      ? date('Person.Geburtsdatum', person.Geburtsdatum, stored.birthDate, zone, true)
      : null,
    occupation: natural ? text(person.Beruf, stored.occupation) : null,
    specialty: natural ? text(person.Fachrichtung, stored.specialty) : null,
    companyName: natural ? null : text(person.Firma, stored.companyName),
    contactPerson: natural ? null : text(person.Ansprechpartner, stored.contactPerson),
    foundingDate: natural
      ? null
      : date('Person.Gruendungsdatum', person.Gruendungsdatum, stored.foundingDate, zone, true),
    industry: natural ? null : text(person.Branche, stored.industry),
    notifyUserName: (notify?.Passwort || notify?.Benutzername) ?? stored.notifyUserName,
    notifyPasswordLink: (notify?.Passwort || notify?.PasswortLink) ?? stored.notifyPasswordLink,
    suppressInitialInfo: notify?.ErstinfoUnterbinden ?? stored.suppressInitialInfo,
  };
  if (natural && !fields.lastName)
    throw DomainError.validation(['Person.Nachname is required for a natural person']);
  if (!natural && !fields.companyName)
    throw DomainError.validation(['Person.Firma is required for a legal person']);
  return fields;
}
