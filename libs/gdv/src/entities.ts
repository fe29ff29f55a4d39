import type {
  ContactContext,
  ContactType,
  ContractStatus,
  Gender,
  PartnerRole,
  PaymentMode,
  Salutation,
} from './code-tables.js';
import type { GdvDate } from './fields.js';

export interface ImportAddress {
  street: string | null;
  postalCode: string | null;
  city: string | null;
  postOfficeBox: string | null;
  /** Länderkennzeichen as delivered (vehicle-style: `D`, `A`, `CH` …). */
  countryCode: string | null;
  /** ISO 3166-1 alpha-2 for the codes in COUNTRY_CODES; null when blank or not in the table. */
  country: string | null;
}

export interface ImportContact {
  /** Null for a Kommunikationstyp outside the table; `code` keeps it. */
  type: ContactType | null;
  context: ContactContext | null;
  code: string;
  value: string;
}

/** A partner from one 0100 record: the Versicherungsnehmer (a customer) or another role on the contract. */
export interface ImportPerson {
  /**
   * Identifies the person for upserts and links: `kunde:<VU>:<Kundennummer des Versicherers>` when part 2
   * carries that number, else `vertrag:<VU>:<VSNr>:<Adresskennzeichen>`.
   */
  key: string;
  role: PartnerRole;
  roleCode: string;
  vuNumber: string;
  policyNumber: string;
  sparte: string;
  insurerCustomerNumber: string | null;
  brokerCustomerNumber: string | null;
  personType: 'natural' | 'legal';
  salutation: Salutation | null;
  title: string | null;
  /** Natural persons: Name 3. */
  firstName: string | null;
  /** Natural persons: Name 1. */
  lastName: string | null;
  /** Natural persons: Name 2. */
  nameAddition: string | null;
  /** Legal persons: Name 1–3 joined by blanks. */
  companyName: string | null;
  birthDate: GdvDate | null;
  gender: Gender | null;
  nationality: string | null;
  address: ImportAddress;
  contacts: ImportContact[];
  lines: number[];
}

/** The premium a 0210 record (line-of-business part) states for its Sparte. */
export interface LineOfBusinessPart {
  sparte: string;
  /** Read for the Sparten whose position the facts confirm (040, 130); null for the others. */
  premiumCents: number | null;
  lines: number[];
}

/** A contract from one 0200 record and the 0210 records that follow it with the same VSNr. */
export interface ImportContract {
  /** `key` of the Versicherungsnehmer; null when the file names none (see README). */
  customerKey: string | null;
  vuNumber: string;
  /** 3 digits; `000` for a bundled contract, whose real Sparten are in `lineOfBusinessParts`. */
  sparte: string;
  bundled: boolean;
  policyNumber: string;
  sequenceNumber: string;
  broker: string;
  status: ContractStatus | null;
  statusCode: string | null;
  startDate: GdvDate | null;
  endDate: GdvDate | null;
  mainDueDate: GdvDate | null;
  paymentMode: PaymentMode | null;
  paymentModeCode: string | null;
  netPremiumCents: number | null;
  /** From part 2, which files before 2009 lack: then null. */
  grossPremiumCents: number | null;
  currency: string | null;
  insurerCustomerNumber: string | null;
  lineOfBusinessParts: LineOfBusinessPart[];
  lines: number[];
}

export type ImportEntityEvent =
  | { kind: 'customer'; customer: ImportPerson }
  | { kind: 'party'; party: ImportPerson }
  | { kind: 'contract'; contract: ImportContract };
