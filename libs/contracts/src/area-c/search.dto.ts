import { Transform } from 'class-transformer';
import {
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  type ValidationArguments,
  ValidateBy,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { AdresseView } from './address.dto.js';
import type { PersonType } from './customer.dto.js';

/** searchKunden: `size` when the caller sends none (spec), and the most one page may hold. */
export const SEARCH_DEFAULT_SIZE = 50;
export const SEARCH_MAX_SIZE = 200;
/** Longest `q` accepted, and the most terms (words) it may hold. */
export const SEARCH_MAX_QUERY_LENGTH = 200;
export const SEARCH_MAX_TERMS = 10;
/** `from` is an offset into the hits; PostgreSQL's integer is its bound. */
export const SEARCH_MAX_FROM = 2_147_483_647;

/** A query-string integer: only digits (with an optional minus) become a number; anything else stays as sent. */
const integer = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value;

/*
 * The query-string parameters are checked with one check and one message each: a plain `?size=abc` would
 * otherwise collect "must be an integer", "must not be less than 0" and "must not be greater than 200" at once.
 */

/** A whole number within [min, max]. */
function IsWholeNumberWithin(min: number, max: number): PropertyDecorator {
  return ValidateBy({
    name: 'isWholeNumberWithin',
    constraints: [min, max],
    validator: {
      validate: (value: unknown) =>
        typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max,
      defaultMessage: ({ property, value }: ValidationArguments) => {
        if (typeof value !== 'number' || !Number.isInteger(value))
          return `${property} must be a whole number`;
        return value < min
          ? `${property} must not be less than ${min}`
          : `${property} must not be greater than ${max}`;
      },
    },
  });
}

/** Present, a string, not empty, at most `maxLength` characters. */
function IsText(maxLength: number): PropertyDecorator {
  return ValidateBy({
    name: 'isText',
    constraints: [maxLength],
    validator: {
      validate: (value: unknown) => typeof value === 'string' && value !== '' && value.length <= maxLength,
      defaultMessage: ({ property, value }: ValidationArguments) => {
        if (value === undefined || value === null) return `${property} is required`;
        if (typeof value !== 'string') return `${property} must be a string`;
        return value === ''
          ? `${property} must hold at least one character`
          : `${property} must be shorter than or equal to ${maxLength} characters`;
      },
    },
  });
}

/** Paging as searchKunden pages (spec): `from` (default 0) and `size` (default 50). */
export class FromSizeParams {
  @IsOptional()
  @Transform(integer)
  @IsWholeNumberWithin(0, SEARCH_MAX_FROM)
  @JSONSchema({
    type: 'integer',
    minimum: 0,
    maximum: SEARCH_MAX_FROM,
    default: 0,
    description: 'Items to skip',
  })
  from: number = 0;

  @IsOptional()
  @Transform(integer)
  @IsWholeNumberWithin(0, SEARCH_MAX_SIZE)
  @JSONSchema({
    type: 'integer',
    minimum: 0,
    maximum: SEARCH_MAX_SIZE,
    default: SEARCH_DEFAULT_SIZE,
    description: 'Items per page',
  })
  size: number = SEARCH_DEFAULT_SIZE;
}

/**
 * The query string of searchKunden: `?q=<text>&from=<int>&size=<int>`. The @JSONSchema decorators describe the
 * checks above, whose custom form the OpenAPI generator cannot read, from the same limits.
 */
export class SearchKundenParams extends FromSizeParams {
  @IsText(SEARCH_MAX_QUERY_LENGTH)
  @JSONSchema({
    type: 'string',
    minLength: 1,
    maxLength: SEARCH_MAX_QUERY_LENGTH,
    description: `The search text: words or their beginnings, e-mail, phone, customer id or postal code; at most ${SEARCH_MAX_TERMS} terms`,
  })
  q!: string;
}

/** SearchQuery, the body of the POST form: further filters, both optional. */
export class SearchQuery {
  /** Only customers with this e-mail address (any of their e-mail contacts; case is ignored). */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(254)
  mail?: string | null;

  /** Only the customer with this id. */
  @IsOptional()
  @IsString()
  @Matches(/^[1-9][0-9]{0,17}$/, { message: 'id must be a customer id (a positive whole number)' })
  id?: string | null;
}

/** KundenSuchErgebnisPerson: the fields of the customer's person type only. */
export type KundenSuchErgebnisPerson =
  | {
      Typ: Extract<PersonType, 'natuerlich'>;
      Titel: string | null;
      Vorname: string | null;
      Nachname: string | null;
      Geburtsdatum: string | null;
    }
  | {
      Typ: Extract<PersonType, 'juristisch'>;
      Firma: string | null;
      Ansprechpartner: string | null;
      Gruendungsdatum: string | null;
    };

/** One hit of searchKunden. */
export interface KundenSuchErgebnis {
  /** The customer's getKunde path. */
  Uri: string;
  Id: string;
  Anrede: string | null;
  Person: KundenSuchErgebnisPerson;
  /** Address 0, as the address operations answer it; null when the customer has none. */
  Hauptwohnsitz: AdresseView | null;
}
