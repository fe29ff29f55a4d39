import type { CustomerFields } from './customer.repository.js';

const TRANSLITERATION: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss' };

/** Lower-case ASCII: umlauts spelled out, other accents dropped, anything else outside [a-z0-9] removed. */
function ascii(text: string): string {
  return text
    .toLowerCase()
    .replace(/[äöüß]/g, (character) => TRANSLITERATION[character] ?? character)
    .normalize('NFD')
    .replace(/[^a-z0-9]/g, '');
}

/**
 * User names to try for a customer created without one: `vorname.nachname` (or the company name), then the
 * same with 2, 3, ... appended.
 */
export function* userNameCandidates(fields: CustomerFields): Generator<string> {
  const parts =
    fields.personType === 'natuerlich' ? [fields.firstName, fields.lastName] : [fields.companyName];
  const base =
    parts
      .map((part) => ascii(part ?? ''))
      .filter(Boolean)
      .join('.')
      .slice(0, 56) || 'kunde';
  const padded = base.length >= 3 ? base : `${base}kunde`;
  yield padded;
  for (let suffix = 2; suffix < 10_000; suffix++) yield `${padded}${suffix}`;
}
