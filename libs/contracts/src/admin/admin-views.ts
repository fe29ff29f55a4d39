/*
 * The administration service's answers (beyond the spec). Times are RFC 3339 strings in UTC
 * (`2026-11-29T10:15:00Z`), named `*_at` or `time`.
 */

/** A tenant (a broker pool's client): `id` is its code, the `{tenant}` of every area's paths. */
export interface TenantView {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

/** What every page of a list says about itself. */
export interface PageInfo {
  /** Items matching the filters, on every page. */
  total: number;
  offset: number;
  limit: number;
}

export interface TenantPage extends PageInfo {
  items: TenantView[];
}

/** A broker of a tenant; `parent` is its superior's number, null at the top of the tree. */
export interface BrokerView {
  number: string;
  name: string;
  parent: string | null;
  blocked: boolean;
  /** Brokers directly below it. */
  sub_broker_count: number;
  created_at: string;
  updated_at: string;
}

export interface BrokerPage extends PageInfo {
  items: BrokerView[];
}

/** An employee of a broker; a disabled one is refused by area C. */
export interface EmployeeView {
  broker: string;
  number: string;
  name: string;
  email: string | null;
  disabled: boolean;
  created_at: string;
  updated_at: string;
}

export interface EmployeePage extends PageInfo {
  items: EmployeeView[];
}

/** An API client of area C, never with its key. */
export interface ApiClientView {
  api_id: string;
  broker: string;
  blocked: boolean;
  /** When the current key was made. */
  key_created_at: string;
  /** Until when the key a rotation replaced is still accepted; null when there is none. */
  previous_key_valid_until: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApiClientPage extends PageInfo {
  items: ApiClientView[];
}

/** getBroker: the broker with its superior, how many brokers are below it, its employees and API clients. */
export interface BrokerDetailView extends BrokerView {
  parent_name: string | null;
  /** The first 100 by number; `employee_count` counts all. */
  employees: EmployeeView[];
  employee_count: number;
  /** The first 100 by API id; `api_client_count` counts all. */
  api_clients: ApiClientView[];
  api_client_count: number;
}

/** createApiClient: the key and the OTP variant's URI, shown only in this answer. */
export interface ApiClientCreated {
  api_id: string;
  broker: string;
  /** The API key of the digest form (X-Svc-Digest); its UTF-8 bytes are also the OTP secret. */
  api_key: string;
  /** `otpauth://totp/...` for authenticator apps and libraries: the X-Svc-Otp form (SHA-1, 8 digits, 30 s). */
  otp_uri: string;
}

/** rotateApiClientKey: the new key (and its OTP URI), shown only here; the replaced key works until the time given. */
export interface ApiKeyRotated {
  api_key: string;
  otp_uri: string;
  previous_key_valid_until: string;
}

/** A user of the calculation service (area B), never with its password. */
export interface CalcUserView {
  username: string;
  disabled: boolean;
  created_at: string;
  updated_at: string;
}

export interface CalcUserPage extends PageInfo {
  items: CalcUserView[];
}

/** An insurer of the tenant, by its VU number (the `companies` of an import). */
export interface CompanyView {
  vu_number: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface CompanyPage extends PageInfo {
  items: CompanyView[];
}

/** A broker's agreement with an insurer, with the broker's agency number there. */
export interface CompanyAgreementView {
  broker: string;
  vu_number: string;
  agency_number: string | null;
  created_at: string;
  updated_at: string;
}

export interface CompanyAgreementPage extends PageInfo {
  items: CompanyAgreementView[];
}

/** The kinds of master-data files. */
export const MASTER_DATA_KINDS = ['brokers', 'employees', 'companies', 'agreements'] as const;
export type MasterDataKind = (typeof MASTER_DATA_KINDS)[number];

/** A line of a master-data file that cannot be taken, by its line number in the file (the header is line 1). */
export interface MasterDataLineError {
  line: number;
  message: string;
}

/** A column a row of a master-data file changes: its stored value and the file's. */
export interface MasterDataChange {
  column: string;
  from: string | boolean | null;
  to: string | boolean | null;
}

export const MASTER_DATA_OUTCOMES = ['created', 'updated', 'unchanged'] as const;
export type MasterDataOutcome = (typeof MASTER_DATA_OUTCOMES)[number];

/** What a good row of a master-data file does to the stored row of its key. */
export interface MasterDataRowOutcome {
  /** The row's line in the file (the header is line 1). */
  line: number;
  /**
   * The row's key: a broker's number, an employee's `broker/number`, an insurer's `vu_number`, an agreement's
   * `broker/vu_number`.
   */
  key: string;
  outcome: MasterDataOutcome;
  /** For `updated`: each column the row changes; empty otherwise. */
  changes: MasterDataChange[];
}

/**
 * importMasterData: rows created, updated and left unchanged, counted and (the first MASTER_DATA_MAX_LISTED_ROWS by
 * line) listed with what each does. With `errors`, nothing was written (the counts and rows say what the file's good
 * rows would have done); a dry run writes nothing either way.
 */
export interface MasterDataResult {
  kind: MasterDataKind;
  dry_run: boolean;
  created: number;
  updated: number;
  unchanged: number;
  rows: MasterDataRowOutcome[];
  /** Good rows beyond the listed ones (counted above, not listed). */
  rows_not_listed: number;
  errors: MasterDataLineError[];
}

/** Good rows a master-data result lists at most. */
export const MASTER_DATA_MAX_LISTED_ROWS = 1000;

export const AUDIT_ACTOR_KINDS = ['customer', 'operator', 'tenant-admin', 'api-client', 'system'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/**
 * Who acted: an operator or a tenant administrator (the token's subject and client), an API client of area C
 * (its API id), a customer through a link of theirs, or the platform's own tooling (the demo seed).
 */
export interface AuditActorView {
  kind: AuditActorKind;
  subject: string;
  client: string | null;
}

/** One write, as the audit trail holds it: never a secret. */
export interface AuditEventView {
  id: string;
  time: string;
  actor: AuditActorView;
  /** The operationId of the write (`createBroker`), or a customer's action (`passwort_gesetzt`). */
  action: string;
  /** What was written, as a path below the tenant (`brokers/V1000`, `api-clients/portal-1`). */
  target: string;
  /** The fields written with their new values (secrets only named, e.g. `password_changed: true`). */
  changes: Record<string, unknown>;
}

/** A page of audit events, newest first; `next_cursor` asks for the following page, null after the last. */
export interface AuditEventPage {
  items: AuditEventView[];
  next_cursor: string | null;
}
