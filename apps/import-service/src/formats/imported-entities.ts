import type { ContractStatus, PaymentMode, Salutation } from '@broker/gdv';

/**
 * What an import file contributes to the inventory, whatever its format: customers and their contracts in
 * the inventory's values. The pipeline stages these and writes them set-based.
 */
export interface ImportedCustomer {
  /** Identifies the customer within the importing broker (the inventory's external key). */
  key: string;
  personType: 'natuerlich' | 'juristisch';
  salutation: Salutation | null;
  title: string | null;
  firstName: string | null;
  lastName: string | null;
  companyName: string | null;
  /** YYYY-MM-DD */
  birthDate: string | null;
  address: { street: string | null; postalCode: string | null; city: string | null; country: string };
  /** `context` as the file states it; when absent the contact is filed as private or business by person type. */
  contacts: {
    type: 'email' | 'telefon' | 'mobil' | 'fax';
    value: string;
    context: 'privat' | 'geschaeftlich' | null;
  }[];
  line: number;
}

export interface ImportedContract {
  customerKey: string;
  vuNumber: string;
  /** GDV Sparte, 3 digits. */
  lineOfBusiness: string;
  policyNumber: string;
  status: ContractStatus;
  startDate: string | null;
  endDate: string | null;
  mainDueDate: string | null;
  paymentMode: PaymentMode | null;
  netPremiumCents: number | null;
  grossPremiumCents: number | null;
  currency: string;
  line: number;
}

export type ImportedEntityEvent =
  | { kind: 'customer'; customer: ImportedCustomer }
  | { kind: 'contract'; contract: ImportedContract }
  | { kind: 'rejected'; line: number; message: string }
  | { kind: 'warning'; line: number; message: string };
