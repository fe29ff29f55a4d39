import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * A phone number as the SMS gateway takes it: E.164 (`+491712345678`), read as a German number when it carries no
 * country code (`0171 2345678`); undefined when it is no valid number (libphonenumber-js with its full metadata).
 */
export function e164(value: string): string | undefined {
  const number = parsePhoneNumberFromString(value, 'DE');
  return number?.isValid() ? number.number : undefined;
}
