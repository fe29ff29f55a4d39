import {
  CONTACT_TYPES,
  COUNTRY_CODES,
  GENDERS,
  NATURAL_PERSON_LEGAL_FORM,
  PARTNER_ROLES,
  SALUTATIONS,
} from './code-tables.js';
import type { ImportAddress, ImportContact, ImportPerson } from './entities.js';
import { type GdvWarning, warning } from './events.js';
import { ADRESSTEIL_1, ADRESSTEIL_2, ADRESSTEIL_3, type Span } from './layout.js';
import { PartReader } from './part-reader.js';
import { type GdvRecord, linesOf, partOf } from './records.js';

export const POLICYHOLDER_ROLE = '01';

/** Maps a 0100 record (parts 1–3; IBAN/BIC in part 4 are not imported). */
export function mapPerson(record: GdvRecord, warnings: GdvWarning[]): ImportPerson {
  const first = new PartReader(partOf(record, 1), warnings);
  const second = new PartReader(partOf(record, 2), warnings);
  const third = new PartReader(partOf(record, 3), warnings);
  const roleCode = roleCodeOf(record, first, warnings);
  const insurerCustomerNumber = second.text(ADRESSTEIL_2.insurerCustomerNumber);
  const personType = personTypeOf(first, third);
  return {
    key: personKey(record, roleCode, insurerCustomerNumber),
    role: PARTNER_ROLES.get(roleCode) ?? 'sonstige',
    roleCode,
    vuNumber: record.vuNumber,
    policyNumber: record.policyNumber,
    sparte: record.sparte,
    insurerCustomerNumber,
    brokerCustomerNumber: second.text(ADRESSTEIL_2.brokerCustomerNumber),
    personType,
    salutation: first.code(ADRESSTEIL_1.salutation, SALUTATIONS, 'Anredeschlüssel'),
    title: first.text(ADRESSTEIL_1.title),
    ...names(first, personType),
    birthDate: first.date(ADRESSTEIL_1.birthDate, 'Geburtsdatum'),
    gender: first.code(ADRESSTEIL_1.gender, GENDERS, 'Geschlecht'),
    nationality: first.text(ADRESSTEIL_1.nationality),
    address: addressOf(first),
    contacts: [
      ...contactsOf(second, ADRESSTEIL_2.communication),
      ...contactsOf(third, ADRESSTEIL_3.communication),
    ],
    lines: linesOf(record),
  };
}

export function isPolicyholder(person: ImportPerson): boolean {
  return person.roleCode === POLICYHOLDER_ROLE;
}

export function personKey(
  record: Pick<GdvRecord, 'vuNumber' | 'policyNumber'>,
  roleCode: string,
  insurerCustomerNumber: string | null,
): string {
  if (insurerCustomerNumber) return `kunde:${record.vuNumber}:${insurerCustomerNumber}`;
  return `vertrag:${record.vuNumber}:${record.policyNumber}:${roleCode}`;
}

/** A blank Adresskennzeichen (older producers) is read as Versicherungsnehmer, with a warning. */
function roleCodeOf(record: GdvRecord, first: PartReader, warnings: GdvWarning[]): string {
  const code = first.text(ADRESSTEIL_1.role);
  if (code === null) {
    warnings.push(
      warning('unknown-code', linesOf(record), 'Adresskennzeichen blank; read as Versicherungsnehmer'),
    );
    return POLICYHOLDER_ROLE;
  }
  if (!PARTNER_ROLES.has(code)) {
    warnings.push(warning('unknown-code', linesOf(record), `Adresskennzeichen: unknown code "${code}"`));
  }
  return code;
}

/**
 * Legal when the Rechtsform says so (any form but 01), else when the Anrede is Firma (3) or Vereinigung (6),
 * else when the Geschlecht is 0 (juristische Person); natural otherwise.
 */
function personTypeOf(first: PartReader, third: PartReader): 'natural' | 'legal' {
  const legalForm = third.text(ADRESSTEIL_3.legalForm);
  if (legalForm !== null) return legalForm === NATURAL_PERSON_LEGAL_FORM ? 'natural' : 'legal';
  const salutation = first.raw(ADRESSTEIL_1.salutation);
  if (salutation === '3' || salutation === '6') return 'legal';
  return first.raw(ADRESSTEIL_1.gender) === '0' ? 'legal' : 'natural';
}

type Names = Pick<ImportPerson, 'firstName' | 'lastName' | 'nameAddition' | 'companyName'>;

/** Name 1 is the surname or company name, Name 2 its continuation, Name 3 the first name (facts §3.2). */
function names(first: PartReader, personType: 'natural' | 'legal'): Names {
  const name1 = first.text(ADRESSTEIL_1.name1);
  const name2 = first.text(ADRESSTEIL_1.name2);
  const name3 = first.text(ADRESSTEIL_1.name3);
  if (personType === 'legal') {
    const companyName = [name1, name2, name3].filter((name) => name !== null).join(' ') || null;
    return { firstName: null, lastName: null, nameAddition: null, companyName };
  }
  return { firstName: name3, lastName: name1, nameAddition: name2, companyName: null };
}

function addressOf(first: PartReader): ImportAddress {
  return {
    street: first.text(ADRESSTEIL_1.street),
    postalCode: first.text(ADRESSTEIL_1.postalCode),
    city: first.text(ADRESSTEIL_1.city),
    postOfficeBox: first.text(ADRESSTEIL_1.postOfficeBox),
    countryCode: first.text(ADRESSTEIL_1.country),
    country: first.code(ADRESSTEIL_1.country, COUNTRY_CODES, 'Länderkennzeichen'),
  };
}

function contactsOf(
  part: PartReader,
  slots: readonly (readonly [type: Span, value: Span])[],
): ImportContact[] {
  const contacts: ImportContact[] = [];
  for (const [typeSpan, valueSpan] of slots) {
    const value = part.text(valueSpan);
    if (value === null) continue;
    const known = part.code(typeSpan, CONTACT_TYPES, 'Kommunikationstyp');
    const type = known ? known.type : null;
    contacts.push({
      type,
      context: known ? known.context : null,
      code: part.text(typeSpan) ?? '',
      value: type === 'email' ? emailAddress(value) : value,
    });
  }
  return contacts;
}

/** Producers write `@` as `(a)` (musterdatei) or as `§` (DIN 66003 heritage, facts §2.6). */
function emailAddress(value: string): string {
  return value.replace('(a)', '@').replace('§', '@');
}
