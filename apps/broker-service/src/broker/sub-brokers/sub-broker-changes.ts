import type { UntervermittlerdatensatzInput } from '@broker/contracts';
import { DomainError } from '@broker/errors';

/** The fields of Untervermittlerdatensatz and the broker columns they change. */
export const SUB_BROKER_COLUMNS = {
  Name: 'name',
  Namenszusatz: 'name_suffix',
  Strasse: 'street',
  PLZ: 'postal_code',
  Ort: 'city',
  Email: 'email',
  Telefon: 'phone',
  Mobil: 'mobile',
  Fax: 'fax',
  Website: 'website',
  Impressum: 'imprint',
} as const;

type SubBrokerField = keyof typeof SUB_BROKER_COLUMNS;
export type SubBrokerColumn = (typeof SUB_BROKER_COLUMNS)[SubBrokerField];

/** A value as stored: `""` and null both clear (the DTO has trimmed the value already). */
const cleared = (value: string | null | undefined) => (value === '' ? null : value);

/**
 * The column changes a PATCH asks for: omitted fields are absent, an empty (or blank) string or null clears
 * (null in the column). Nested Adresse and Kommunikationsdaten fields count like flat ones; a field given both
 * ways with different values is a 400.
 */
export function subBrokerChanges(input: UntervermittlerdatensatzInput): Map<SubBrokerColumn, string | null> {
  const nested: Partial<Record<SubBrokerField, string | null>> = {
    ...input.Adresse,
    ...input.Kommunikationsdaten,
  };
  const changes = new Map<SubBrokerColumn, string | null>();
  const problems: string[] = [];
  for (const field of Object.keys(SUB_BROKER_COLUMNS) as SubBrokerField[]) {
    const flat = cleared(input[field]);
    const inner = cleared(nested[field]);
    if (flat !== undefined && inner !== undefined && flat !== inner)
      problems.push(`${field} is given flat and nested with different values`);
    const value = flat !== undefined ? flat : inner;
    if (value === undefined) continue;
    if (value === null && field === 'Name') problems.push('Name cannot be cleared');
    changes.set(SUB_BROKER_COLUMNS[field], value);
  }
  if (problems.length > 0) throw DomainError.validation(problems);
  return changes;
}
