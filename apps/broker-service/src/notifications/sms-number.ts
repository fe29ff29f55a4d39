import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** The number types an SMS may go to: not premium-rate, shared-cost or fixed lines. */
const SMS_TYPES = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE']);

/**
 * A mobile number as the SMS gateway takes it: E.164 (`+491712345678`), read as a German number when it carries
 * no country code (`0171 2345678`); undefined for anything else: text around the number, an extension, or a number
 * that is no mobile one (premium-rate and fixed-line numbers invite toll fraud and cannot take an SMS anyway)
 * (libphonenumber-js with its full metadata).
 */
export function e164(value: string): string | undefined {
  const number = parsePhoneNumberFromString(value, { defaultCountry: 'DE', extract: false });
  if (!number?.isValid() || number.ext !== undefined) return undefined;
  return SMS_TYPES.has(number.getType() ?? '') ? number.number : undefined;
}
