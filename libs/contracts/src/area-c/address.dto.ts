import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ADDRESS_TYPES, COUNTRIES, keysOf } from './enumerations.js';
import { NAME_MAX, ReadOnly } from './customer.dto.js';

/** Adresse as sent to addKundenAdresse and setKundenAdresse; Uri and Id are accepted and ignored. */
export class AdresseInput {
  @IsOptional() @IsString() @ReadOnly() Uri?: string;
  @IsOptional() @IsString() @ReadOnly() Id?: string;

  /** Required when adding; for address 0 (the main residence) ignored. */
  @IsOptional()
  @IsIn(keysOf(ADDRESS_TYPES))
  Typ?: string;

  @IsOptional() @IsString() @MaxLength(NAME_MAX) Zusatz?: string;
  @IsOptional() @IsString() @MaxLength(NAME_MAX) Strasse?: string;
  @IsOptional() @IsString() @MaxLength(10) Postleitzahl?: string;
  @IsOptional() @IsString() @MaxLength(NAME_MAX) Ort?: string;

  @IsOptional()
  @IsIn(keysOf(COUNTRIES))
  Land?: string;
}

export interface AdresseView {
  Uri: string;
  Id: string;
  Typ: string;
  Zusatz: string | null;
  Strasse: string | null;
  Postleitzahl: string | null;
  Ort: string | null;
  Land: string;
}
