import type { DetailType } from '@broker/contracts';
import { DateParseError, parseDate } from '@broker/datetime';
import { DomainError } from '@broker/errors';
import { TEXT_MAX } from '@broker/contracts';
import type { DetailDefinitionRecord } from './detail.repository.js';

const NUMBER = /^-?\d{1,15}([.,]\d{1,6})?$/;
const AMOUNT = /^-?\d{1,13}[.,]\d{2}$/;

const refuse = (key: string, expectation: string) =>
  DomainError.validation([`Value of detail ${key} must be ${expectation}`]);

/**
 * A detail value checked against its definition's Type and normalised: zahl and betrag_2 with a decimal point,
 * datum as YYYY-MM-DD, auswahl one of the definition's keys, text at most 4000 characters, boolean a JSON boolean.
 */
export function normaliseDetailValue(
  definition: DetailDefinitionRecord,
  value: unknown,
  zone: string | undefined,
): string | boolean {
  const type: DetailType = definition.type;
  if (type === 'boolean') {
    if (typeof value !== 'boolean') throw refuse(definition.key, 'a JSON boolean (true or false)');
    return value;
  }
  if (typeof value !== 'string') throw refuse(definition.key, 'a string');
  const text = value.trim();
  switch (type) {
    case 'zahl':
      if (!NUMBER.test(text)) throw refuse(definition.key, 'a number (for example 12 or 12,5)');
      return text.replace(',', '.');
    case 'betrag_2':
      if (!AMOUNT.test(text)) throw refuse(definition.key, 'an amount with two decimals (for example 12,50)');
      return text.replace(',', '.');
    case 'datum':
      try {
        return parseDate(text, zone);
      } catch (error) {
        if (error instanceof DateParseError) throw refuse(definition.key, 'a date');
        throw error;
      }
    case 'auswahl': {
      const keys = Object.keys(definition.options ?? {});
      if (!keys.includes(text)) throw refuse(definition.key, `one of ${keys.join(', ')}`);
      return text;
    }
    case 'text':
      if (value.length > TEXT_MAX) throw refuse(definition.key, `at most ${TEXT_MAX} characters`);
      return value;
  }
}
