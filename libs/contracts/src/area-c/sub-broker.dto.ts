import { Transform, Type } from 'class-transformer';
import {
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { EMAIL_ADDRESS, PHONE_NUMBER, POSTAL_CODE, WEBSITE } from './contact-patterns.js';
import { JSONSchema } from 'class-validator-jsonschema';
import { NAME_MAX, ReadOnly, TEXT_MAX, VALUE_MAX } from './customer.dto.js';
import { FromSizeParams } from './search.dto.js';
import { BROKER_NUMBER } from '../admin/admin-requests.js';

/** Values are taken trimmed: formats are checked, and texts stored, without surrounding blanks. */
const trimmed = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/** The decorators of one field, applied in order (JSONSchema's take the key as a string). */
function field(...decorators: ((target: object, key: string) => void)[]): PropertyDecorator {
  return (target, key) => decorators.forEach((decorate) => decorate(target, String(key)));
}

/** A text that an empty or blank string (or null) clears; otherwise it must match `pattern` when one is given. */
function ClearableText(maxLength: number, pattern?: { regex: RegExp; message: string }): PropertyDecorator {
  const format = pattern
    ? [
        ValidateIf((_object, value) => value !== ''),
        Matches(pattern.regex, { message: pattern.message }),
        JSONSchema({ pattern: blankOr(pattern.regex) }),
      ]
    : [];
  return field(trimmed(), IsOptional(), IsString(), MaxLength(maxLength), ...format);
}

/** The pattern of a value as sent: `regex` with blanks around it (they are trimmed), or blanks only. */
const blankOr = (regex: RegExp) => `^\\s*(?:${regex.source.replace(/^\^/, '').replace(/\$$/, '')})?\\s*$`;

const PostalCode = () =>
  ClearableText(5, { regex: POSTAL_CODE, message: 'PLZ must be a postal code of five digits' });
const EmailAddress = () =>
  ClearableText(VALUE_MAX, { regex: EMAIL_ADDRESS, message: 'Email must be an e-mail address' });
const PhoneNumber = (name: string) =>
  ClearableText(30, { regex: PHONE_NUMBER, message: `${name} must be a telephone number` });

/** A field that may be changed but never cleared. */
const RequiredText = (clearMessage: string) =>
  field(
    trimmed(),
    ValidateIf((_object, value) => value !== undefined),
    IsString(),
    IsNotEmpty({ message: clearMessage }),
    MaxLength(NAME_MAX),
    JSONSchema({ pattern: '\\S' }), // not blank: the value is taken trimmed
  );

/** The address of a sub-broker, the nested form of Strasse, PLZ and Ort. */
export class UntervermittlerAdresse {
  @ClearableText(NAME_MAX) Strasse?: string | null;
  @PostalCode() PLZ?: string | null;
  @ClearableText(NAME_MAX) Ort?: string | null;
}

/** The contact data of a sub-broker, the nested form of Email, Telefon, Mobil and Fax. */
export class UntervermittlerKommunikationsdaten {
  @EmailAddress() Email?: string | null;
  @PhoneNumber('Telefon') Telefon?: string | null;
  @PhoneNumber('Mobil') Mobil?: string | null;
  @PhoneNumber('Fax') Fax?: string | null;
}

/**
 * Untervermittlerdatensatz (updateUntervermittler): every field optional; omitted fields stay, an empty string
 * (or null) clears. The address and contact fields are accepted flat, as the spec's type table lists them, or
 * nested under Adresse and Kommunikationsdaten, as its example sends them; a field given both ways must carry
 * the same value.
 */
export class UntervermittlerdatensatzInput {
  /** The broker's own number, as getVermittler answers it: when sent, it must name the broker being changed. */
  @IsOptional() @IsString() @ReadOnly() Vermittler?: string;

  /** The number of the broker to place this sub-broker under. */
  @RequiredText('Uebervermittler cannot be cleared: a sub-broker always has a superior broker')
  Uebervermittler?: string;

  @RequiredText('Name cannot be cleared') Name?: string;
  @ClearableText(NAME_MAX) Namenszusatz?: string | null;
  @ClearableText(NAME_MAX) Strasse?: string | null;
  @PostalCode() PLZ?: string | null;
  @ClearableText(NAME_MAX) Ort?: string | null;
  @EmailAddress() Email?: string | null;
  @PhoneNumber('Telefon') Telefon?: string | null;
  @PhoneNumber('Mobil') Mobil?: string | null;
  @PhoneNumber('Fax') Fax?: string | null;

  @ClearableText(VALUE_MAX, {
    regex: WEBSITE,
    message: 'Website must be a web address (for example https://www.example.de)',
  })
  Website?: string | null;

  @ClearableText(TEXT_MAX) Impressum?: string | null;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => UntervermittlerAdresse)
  Adresse?: UntervermittlerAdresse;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => UntervermittlerKommunikationsdaten)
  Kommunikationsdaten?: UntervermittlerKommunikationsdaten;
}

/**
 * createUntervermittler (the spec's sub-broker creation, its fields not shown): the Untervermittlerdatensatz with the
 * new broker's number. Name is required (checked by the service: the data set's fields may be left out when updating);
 * without Uebervermittler the sub-broker is placed below the caller's broker.
 */
@JSONSchema({ required: ['Vermittlernummer', 'Name'] })
export class UntervermittlerAnlageInput extends UntervermittlerdatensatzInput {
  @Matches(BROKER_NUMBER, {
    message:
      'Vermittlernummer must be a broker number: 1 to 32 letters, digits, ., _ or -, starting with a letter or digit',
  })
  Vermittlernummer!: string;
}

/**
 * A broker as area C shows it (getVermittler, listUntervermittler, and the answers of createUntervermittler and
 * updateUntervermittler), in the nested form; cleared fields are null. Uebervermittler is null for a broker at the
 * top of the tree.
 */
export interface UntervermittlerView {
  Vermittler: string;
  Uebervermittler: string | null;
  Name: string;
  Namenszusatz: string | null;
  Adresse: { Strasse: string | null; PLZ: string | null; Ort: string | null };
  Kommunikationsdaten: {
    Email: string | null;
    Telefon: string | null;
    Mobil: string | null;
    Fax: string | null;
  };
  Website: string | null;
  Impressum: string | null;
}

/** listUntervermittler: `?from=<int>&size=<int>` as searchKunden pages (from default 0, size default 50). */
export class UntervermittlerListParams extends FromSizeParams {}
