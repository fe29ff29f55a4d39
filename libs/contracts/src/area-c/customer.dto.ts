import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsObject,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import {
  CONTACT_CONTEXTS,
  CONTACT_KINDS,
  type ContactContext,
  type ContactKind,
  keysOf,
  NOTE_TYPES,
  type NoteType,
  type Salutation,
  SALUTATIONS,
} from './enumerations.js';

export const PERSON_TYPES = ['natuerlich', 'juristisch'] as const;
export type PersonType = (typeof PERSON_TYPES)[number];

/** Short texts (names, streets) and long ones (notes). */
export const NAME_MAX = 100;
export const VALUE_MAX = 254;
export const TEXT_MAX = 4000;
export const USER_NAME = /^[A-Za-z0-9._@-]{3,64}$/;

/** A field that reads as a link (Uri) in responses and is ignored when sent back. */
const dropLink = ({ value }: { value: unknown }) => (typeof value === 'string' ? undefined : value);

/** A field the service sets (an id, a link): what a read answered may be sent back, and is ignored. */
export const ReadOnly = () => JSONSchema({ readOnly: true });

/** A field that null leaves as stored, as if it were absent (it cannot be cleared): the document says so. */
const KeptByNull = (description = 'null keeps the stored value') => JSONSchema({ description });

/** The link a read answers with in place of the entries, which a write ignores. */
const ENTRIES_LINK = {
  type: 'string',
  readOnly: true,
  description: 'The link getKunde answers with; ignored',
} as const;

export class KundePersonInput {
  /** Required by addKunde; setKunde keeps the stored type when it is absent. */
  @IsOptional()
  @IsIn(PERSON_TYPES)
  @KeptByNull('Required by addKunde; setKunde keeps the stored type when it is null or absent')
  Typ?: PersonType;

  @IsOptional() @IsString() @MaxLength(NAME_MAX) Titel?: string;
  @IsOptional() @IsString() @MaxLength(NAME_MAX) Vorname?: string;
  @IsOptional() @IsString() @MaxLength(NAME_MAX) Nachname?: string;
  /** Date: any common notation (see the service README). */
  @IsOptional() @IsString() @MaxLength(40) Geburtsdatum?: string;
  @IsOptional() @IsString() @MaxLength(NAME_MAX) Beruf?: string;
  @IsOptional() @IsString() @MaxLength(NAME_MAX) Fachrichtung?: string;
  @IsOptional() @IsString() @MaxLength(NAME_MAX) Firma?: string;
  @IsOptional() @IsString() @MaxLength(NAME_MAX) Ansprechpartner?: string;
  @IsOptional() @IsString() @MaxLength(40) Gruendungsdatum?: string;
  @IsOptional() @IsString() @MaxLength(NAME_MAX) Branche?: string;
}

export class KontaktdatensatzInput {
  /** Read-only (Uri, Id): accepted and ignored, so a record read can be sent back. */
  @IsOptional() @IsString() @ReadOnly() Uri?: string;
  @IsOptional() @IsString() @ReadOnly() Id?: string;

  @IsIn(CONTACT_CONTEXTS)
  Kontext!: (typeof CONTACT_CONTEXTS)[number];

  @IsIn(keysOf(CONTACT_KINDS))
  Typ!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(VALUE_MAX)
  Value!: string;

  @IsOptional()
  @IsBoolean()
  Standard?: boolean;
}

/** setKundenKontaktdatensatz: only Value and Standard are taken into account (spec); the rest is ignored. */
export class KontaktdatensatzUpdate {
  @IsOptional() @IsString() @ReadOnly() Uri?: string;
  @IsOptional() @IsString() @ReadOnly() Id?: string;
  @IsOptional() @IsString() Kontext?: string;
  @IsOptional() @IsString() Typ?: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(VALUE_MAX)
  Value?: string | null;

  @IsOptional()
  @IsBoolean()
  Standard?: boolean | null;
}

export class KundennotizKompakt {
  @IsIn(keysOf(NOTE_TYPES))
  Typ!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(TEXT_MAX)
  Text!: string;
}

/** Benachrichtigung: which messages a new customer gets. */
export class Benachrichtigung {
  @IsOptional() @IsBoolean() Benutzername?: boolean;
  @IsOptional() @IsBoolean() PasswortLink?: boolean;
  /** Deprecated: forces Benutzername and PasswortLink. */
  @IsOptional() @IsBoolean() Passwort?: boolean;
  @IsOptional() @IsBoolean() ErstinfoUnterbinden?: boolean;
}

/** Kunde as sent to addKunde and setKunde. Read-only fields (Id, Vermittler, links) are accepted and ignored. */
export class KundeInput {
  @IsOptional() @IsString() @ReadOnly() Id?: string;
  @IsOptional() @IsString() @ReadOnly() Vermittler?: string;

  @IsOptional()
  @IsIn(keysOf(SALUTATIONS))
  Anrede?: Salutation | null;

  @IsOptional() @IsBoolean() @KeptByNull() PerDu?: boolean;
  @IsOptional() @IsBoolean() @KeptByNull() Verstorben?: boolean;

  /** Date; an empty string clears it. */
  @IsOptional()
  @IsString()
  @MaxLength(40)
  KundenbeziehungBeendetAm?: string;

  @IsOptional()
  @IsString()
  @Matches(USER_NAME, { message: 'Benutzername must be 3 to 64 letters, digits or . _ @ -' })
  @KeptByNull('null keeps the stored user name (it cannot be cleared)')
  Benutzername?: string;

  /** Required by addKunde; setKunde keeps the stored person fields it omits. */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => KundePersonInput)
  @KeptByNull('Required by addKunde; setKunde keeps the stored person when it is null or absent')
  Person?: KundePersonInput;

  /** addKunde: the contact entries to create. A link (as getKunde returns it) is ignored. */
  @IsOptional()
  @Transform(dropLink)
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => KontaktdatensatzInput)
  @JSONSchema(({ nullable, ...entries }) => ({ anyOf: [entries, ENTRIES_LINK], nullable }))
  Kontaktdaten?: KontaktdatensatzInput[];

  @IsOptional() @IsString() @ReadOnly() Adressen?: string;
  @IsOptional() @IsString() @ReadOnly() Vertraege?: string;
  @IsOptional() @IsString() @ReadOnly() Maklervollmacht?: string;

  /** A note to add to the customer (setKunde: only when it differs from the latest one). */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => KundennotizKompakt)
  Notizen?: KundennotizKompakt;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => Benachrichtigung)
  Mitteilungen?: Benachrichtigung;
}

/** Kunde as getKunde and setKunde answer it. */
export interface KundeView {
  Id: string;
  Vermittler: string;
  Anrede: Salutation | null;
  PerDu: boolean;
  Verstorben: boolean;
  KundenbeziehungBeendetAm: string | null;
  Benutzername: string | null;
  Person: KundePersonView;
  Kontaktdaten: string;
  Adressen: string;
  Vertraege: string;
  Maklervollmacht?: string;
  Notizen: { Typ: NoteType; Text: string } | null;
  Mitteilungen: Required<Omit<Benachrichtigung, 'Passwort'>>;
}

export interface KundePersonView {
  Typ: PersonType;
  Titel?: string | null;
  Vorname?: string | null;
  Nachname?: string | null;
  Geburtsdatum?: string | null;
  Beruf?: string | null;
  Fachrichtung?: string | null;
  Firma?: string | null;
  Ansprechpartner?: string | null;
  Gruendungsdatum?: string | null;
  Branche?: string | null;
}

export interface KontaktdatensatzView {
  Uri: string;
  Id: string;
  Kontext: ContactContext;
  Typ: ContactKind;
  Value: string;
  Standard: boolean;
}
