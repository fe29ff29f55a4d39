import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

export const SIGNATURE_LINK_KINDS = ['maklervollmacht'] as const;
export const SIGNATURE_LINK_CHANNELS = ['sms', 'email'] as const;

/** SendeUnterschrifftenlinkAuftrag; `KundeId` names the customer on the path without a customer id. */
export class SendeUnterschrifftenlinkAuftrag {
  @IsIn(SIGNATURE_LINK_KINDS)
  Art!: (typeof SIGNATURE_LINK_KINDS)[number];

  @IsIn(SIGNATURE_LINK_CHANNELS)
  Kommunikationsweg!: (typeof SIGNATURE_LINK_CHANNELS)[number];

  /** Another recipient than the customer's standard e-mail address or mobile number. */
  @IsOptional()
  @IsString()
  @MaxLength(254)
  Kommunikationsadresse?: string;

  @IsOptional()
  @IsString()
  @Matches(/^[1-9][0-9]{0,17}$/, { message: 'KundeId must be a customer id' })
  KundeId?: string;
}
