import { EMAIL_ADDRESS, PHONE_NUMBER, WEBSITE } from '@broker/contracts';
import { DomainError } from '@broker/errors';

const PATTERNS: Record<string, { pattern: RegExp; what: string }> = {
  email: { pattern: EMAIL_ADDRESS, what: 'an e-mail address' },
  telefon: { pattern: PHONE_NUMBER, what: 'a telephone number' },
  mobil: { pattern: PHONE_NUMBER, what: 'a mobile number' },
  fax: { pattern: PHONE_NUMBER, what: 'a fax number' },
  website: { pattern: WEBSITE, what: 'a web address' },
};

/** A contact value must fit its kind (an e-mail entry holds an e-mail address, ...); else a 400 naming `field`. */
export function checkContactValue(kind: string, value: string, field: string): void {
  const expected = PATTERNS[kind];
  if (expected && !expected.pattern.test(value.trim()))
    throw DomainError.validation([`${field} "${value}" is not ${expected.what}`]);
}
