import { JSONSchema } from 'class-validator-jsonschema';
import { IsDefined, IsOptional } from 'class-validator';
import { ReadOnly } from './customer.dto.js';

/** The value types of a customer detail (Kundendetail.Type). */
export const DETAIL_TYPES = ['zahl', 'datum', 'auswahl', 'text', 'betrag_2', 'boolean'] as const;
export type DetailType = (typeof DETAIL_TYPES)[number];

/** setKundenDetail: the value, checked against the detail's Type by the service. Other fields are ignored. */
export class KundendetailInput {
  @IsDefined({ message: 'Value is required' })
  // The whole schema, not merged: IsDefined would otherwise say `not: {type: null}`, which OpenAPI 3.0 lacks.
  @JSONSchema(() => ({
    oneOf: [{ type: 'string' }, { type: 'boolean' }],
    description: 'A string for every Type but boolean, a JSON boolean for boolean',
  }))
  Value!: unknown;

  @IsOptional() @ReadOnly() Id?: unknown;
  @IsOptional() @ReadOnly() ID?: unknown;
  @IsOptional() @ReadOnly() Name?: unknown;
  @IsOptional() @ReadOnly() Type?: unknown;
  @IsOptional() @ReadOnly() Uri?: unknown;
}

export interface KundendetailView {
  Id: string;
  Name: string;
  Value: string | boolean | null;
  Type: DetailType;
  Uri?: string;
}

export interface KundendetailDefinitionView {
  Id: string;
  Name: string;
  Type: DetailType;
  Definition: Record<string, string> | null;
}
