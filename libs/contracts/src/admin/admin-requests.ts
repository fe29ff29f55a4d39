import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { EMAIL_ADDRESS } from '../area-c/contact-patterns.js';
import { IMPORT_PIPELINE_STATUSES, type ImportStatus } from '../import-process.js';

/*
 * The administration service's requests (beyond the spec). Unknown fields are refused (the platform's validation
 * pipe), so nothing but the fields below can be written: no id, no key, no tenant of another's choosing.
 */

/** A tenant's code: the `{tenant}` of every area's paths (as the database checks it). */
export const TENANT_ID = /^[a-z0-9][a-z0-9_-]{0,31}$/;
/** A broker number (`{vmt}` of area C, `broker` of an import). */
export const BROKER_NUMBER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/;
/** An employee's number (`{ma}` of area C, as the database checks it). */
export const EMPLOYEE_NUMBER = /^[A-Za-z0-9_-]{1,32}$/;
/** An API id (`X-Svc-Api-Id`). */
export const API_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$/;
/** A calculation user's name (`username` of area B's login). */
export const CALC_USERNAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{2,63}$/;
/** An insurer's VU number (the `companies` of an import). */
export const VU_NUMBER = /^[A-Za-z0-9]{1,10}$/;
/** Names of tenants, brokers, employees, insurers. */
export const NAME_MAX_LENGTH = 200;
export const AGENCY_NUMBER_MAX_LENGTH = 64;

/** Values are taken trimmed: names and numbers are stored without surrounding blanks. */
const trimmed = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/**
 * A name without control characters (line breaks among them) and without the bidirectional overrides and isolates,
 * which make a name read differently from what it is wherever it is shown.
 */
export const NAME_TEXT = {
  regex: /^[^\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]*$/,
  message: 'must not contain control or text-direction characters',
};

const Name = (property: string) => (target: object, key: string | symbol) => {
  trimmed()(target, key);
  IsString()(target, key);
  IsNotEmpty({ message: `${property} must not be empty` })(target, key);
  MaxLength(NAME_MAX_LENGTH)(target, key);
  Matches(NAME_TEXT.regex, { message: `${property} ${NAME_TEXT.message}` })(target, key);
};

const Pattern = (pattern: RegExp, message: string) => (target: object, key: string | symbol) => {
  IsString()(target, key);
  Matches(pattern, { message })(target, key);
};

/** A name or number that may be left out, but not sent as null. */
const Optional = () => ValidateIf((_object, value) => value !== undefined);

export class CreateTenantRequest {
  @Pattern(
    TENANT_ID,
    'id must be 1 to 32 lower-case letters, digits, _ or -, starting with a letter or digit',
  )
  id!: string;

  @Name('name') name!: string;
}

const BROKER_NUMBER_MESSAGE = (field: string) =>
  `${field} must be a broker number: 1 to 32 letters, digits, ., _ or -, starting with a letter or digit`;

export class CreateBrokerRequest {
  @Pattern(BROKER_NUMBER, BROKER_NUMBER_MESSAGE('number')) number!: string;

  @Name('name') name!: string;

  /** The superior broker's number, null (or left out) for a broker at the top of the tree. */
  @IsOptional()
  @Pattern(BROKER_NUMBER, BROKER_NUMBER_MESSAGE('parent'))
  @JSONSchema({ nullable: true })
  parent?: string | null;

  @IsOptional()
  @IsBoolean()
  blocked?: boolean;
}

/** Fields left out stay as they are; `parent: null` moves the broker to the top of the tree. */
export class UpdateBrokerRequest {
  @Optional() @Name('name') name?: string;

  /** The new superior's number; null moves the broker to the top of the tree. */
  @IsOptional()
  @Pattern(BROKER_NUMBER, BROKER_NUMBER_MESSAGE('parent'))
  @JSONSchema({ nullable: true })
  parent?: string | null;

  @Optional()
  @IsBoolean()
  blocked?: boolean;
}

const EMAIL_MESSAGE = 'email must be an e-mail address';

export class CreateEmployeeRequest {
  @Pattern(EMPLOYEE_NUMBER, 'number must be 1 to 32 letters, digits, _ or -') number!: string;

  @Name('name') name!: string;

  @IsOptional()
  @trimmedEmail()
  @JSONSchema({ nullable: true })
  email?: string | null;
}

function trimmedEmail(): PropertyDecorator {
  return (target, key) => {
    trimmed()(target, key);
    IsString()(target, key);
    MaxLength(254)(target, key);
    Matches(EMAIL_ADDRESS, { message: EMAIL_MESSAGE })(target, key);
  };
}

/** Fields left out stay as they are; `email: null` removes the address. */
export class UpdateEmployeeRequest {
  @Optional() @Name('name') name?: string;

  @IsOptional()
  @trimmedEmail()
  @JSONSchema({ nullable: true })
  email?: string | null;

  @Optional()
  @IsBoolean()
  disabled?: boolean;
}

export class CreateApiClientRequest {
  /** Chosen by the caller, or made up from the broker's number when left out. */
  @IsOptional()
  @Pattern(API_ID, 'api_id must be 3 to 64 letters, digits, ., _ or -, starting with a letter or digit')
  api_id?: string;
}

export class UpdateApiClientRequest {
  @IsBoolean()
  blocked!: boolean;
}

export class CreateCalcUserRequest {
  @Pattern(
    CALC_USERNAME,
    'username must be 3 to 64 letters, digits, ., _, @ or -, starting with a letter or digit',
  )
  username!: string;

  /** The platform's password rules: 10 to 128 characters, very hard to guess (zxcvbn score 4). */
  @IsString()
  @MaxLength(1024)
  password!: string;
}

/** Fields left out stay as they are. */
export class UpdateCalcUserRequest {
  @Optional()
  @IsBoolean()
  disabled?: boolean;

  @Optional()
  @IsString()
  @MaxLength(1024)
  password?: string;
}

const VU_NUMBER_MESSAGE = 'vu_number must be an insurer’s VU number: 1 to 10 letters or digits';

export class CreateCompanyRequest {
  @Pattern(VU_NUMBER, VU_NUMBER_MESSAGE) vu_number!: string;

  @Name('name') name!: string;
}

export class CreateCompanyAgreementRequest {
  @Pattern(BROKER_NUMBER, BROKER_NUMBER_MESSAGE('broker')) broker!: string;

  @Pattern(VU_NUMBER, VU_NUMBER_MESSAGE) vu_number!: string;

  @IsOptional()
  @trimmed()
  @IsString()
  @IsNotEmpty({ message: 'agency_number must not be empty (leave it out instead)' })
  @MaxLength(AGENCY_NUMBER_MAX_LENGTH)
  @JSONSchema({ nullable: true })
  agency_number?: string | null;
}

export const ADMIN_PAGE_DEFAULT_LIMIT = 50;
export const ADMIN_PAGE_MAX_LIMIT = 500;

/** `?offset=&limit=` of every list. */
export class PageQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(1_000_000_000)
  @JSONSchema({ description: 'Items to skip' })
  offset: number = 0;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(ADMIN_PAGE_MAX_LIMIT)
  @JSONSchema({ description: `Items per page (default ${ADMIN_PAGE_DEFAULT_LIMIT})` })
  limit: number = ADMIN_PAGE_DEFAULT_LIMIT;
}

export const BROKER_SORTS = ['number', '-number', 'name', '-name', 'updated_at', '-updated_at'] as const;
export type BrokerSort = (typeof BROKER_SORTS)[number];

export class ListBrokersQuery extends PageQuery {
  /** Only the brokers directly below this one; `-` for the brokers at the top of the tree. */
  @IsOptional()
  @IsString()
  @Matches(/^(-|[A-Za-z0-9][A-Za-z0-9._-]{0,31})$/, {
    message: 'parent must be a broker number, or - for the brokers at the top of the tree',
  })
  parent?: string;

  /** Brokers whose number or name contains this text (case ignored). */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  q?: string;

  @IsOptional()
  @IsIn(BROKER_SORTS)
  @JSONSchema({ description: 'Order: a field, descending with a leading - (default number)' })
  sort: BrokerSort = 'number';
}

export class ListCompanyAgreementsQuery extends PageQuery {
  @IsOptional()
  @Pattern(BROKER_NUMBER, BROKER_NUMBER_MESSAGE('broker'))
  broker?: string;

  @IsOptional()
  @Pattern(VU_NUMBER, VU_NUMBER_MESSAGE)
  vu_number?: string;
}

export class ListApiClientsQuery extends PageQuery {
  /** Only the clients of this broker. */
  @IsOptional()
  @Pattern(BROKER_NUMBER, BROKER_NUMBER_MESSAGE('broker'))
  broker?: string;
}

export class MasterDataQuery {
  /** `true`: check the file and count what it would do, and write nothing. */
  @IsOptional()
  @IsIn(['true', 'false'])
  dry_run?: 'true' | 'false';
}

export const AUDIT_PAGE_DEFAULT_LIMIT = 100;
export const AUDIT_PAGE_MAX_LIMIT = 1000;
/** An RFC 3339 time with its offset (`2026-11-29T10:00:00Z`, `2026-11-29T11:00:00+01:00`). */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?(Z|[+-](\d{2}):(\d{2}))$/;

/**
 * Whether `value` is an RFC 3339 time that exists (no 30 February, no hour 24), from year 1 to 9999, with an offset
 * of at most ±14:59 (the world's zones span -12:00 to +14:00; PostgreSQL refuses ±16:00 and beyond).
 */
export function isRfc3339Time(value: unknown): boolean {
  const match = typeof value === 'string' ? RFC3339.exec(value) : null;
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const offsetHours = match[9] === undefined ? 0 : Number(match[9]);
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1 &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60 &&
    offsetHours < 15 &&
    Number(match[10] ?? 0) < 60
  );
}

function IsRfc3339Time(property: string): PropertyDecorator {
  return ValidateBy({
    name: 'isRfc3339Time',
    validator: {
      validate: isRfc3339Time,
      defaultMessage: () =>
        `${property} must be an RFC 3339 time with its offset (at most ±14:59), e.g. 2026-11-29T10:00:00Z`,
    },
  });
}

/** An optional RFC 3339 time of a filter (`from`, `to`). */
function OptionalTime(property: string): PropertyDecorator {
  return (target, key) => {
    IsOptional()(target, key);
    IsRfc3339Time(property)(target, key);
    JSONSchema({ type: 'string', format: 'date-time' })(target, String(key));
  };
}

export class ListAuditEventsQuery {
  /** Only events of this actor (the token's subject, an API id, `kunde`). */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  actor?: string;

  /** Only events of this action (an operationId such as createBroker). */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  action?: string;

  /** Only events on this target (`brokers/V1000`), or below it when it ends with `/` (`brokers/`). */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  target?: string;

  /** Only events at or after this time (RFC 3339). */
  @OptionalTime('from')
  from?: string;

  /** Only events before this time (RFC 3339). */
  @OptionalTime('to')
  to?: string;

  /** The `next_cursor` of the page before. */
  @IsOptional()
  @Matches(/^[1-9][0-9]{0,17}$/, { message: 'cursor must be the next_cursor of a page' })
  cursor?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(AUDIT_PAGE_MAX_LIMIT)
  limit: number = AUDIT_PAGE_DEFAULT_LIMIT;
}

/** An optional broker number of a filter. */
function OptionalBrokerNumber(property: string): PropertyDecorator {
  return (target, key) => {
    IsOptional()(target, key);
    Matches(BROKER_NUMBER, { message: BROKER_NUMBER_MESSAGE(property) })(target, key);
  };
}

export const OPERATOR_IMPORT_SORTS = ['-started_at', 'started_at', '-updated_at', 'updated_at'] as const;
export type OperatorImportSort = (typeof OPERATOR_IMPORT_SORTS)[number];
const IMPORT_STATUS_FILTERS = [...IMPORT_PIPELINE_STATUSES, 'failed'] as const;

/** listImportProcesses: a tenant's processes, newest first unless sorted otherwise. */
export class ListImportProcessesQuery extends PageQuery {
  @IsOptional()
  @IsIn(IMPORT_STATUS_FILTERS)
  status?: ImportStatus;

  /** Only the processes of this broker. */
  @OptionalBrokerNumber('broker')
  broker?: string;

  /** Only processes started at or after this time (RFC 3339). */
  @OptionalTime('from')
  from?: string;

  /** Only processes started before this time (RFC 3339). */
  @OptionalTime('to')
  to?: string;

  @IsOptional()
  @IsIn(OPERATOR_IMPORT_SORTS)
  @JSONSchema({ description: 'Order: a field, descending with a leading - (default -started_at)' })
  sort: OperatorImportSort = '-started_at';
}

/** Processes a live list follows at most (a page of listImportProcesses). */
export const FOLLOWED_PROCESSES_MAX = 100;
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** followImportProcesses: the processes a list shows. */
export class FollowImportProcessesQuery {
  @IsOptional()
  @Matches(new RegExp(`^(${UUID}(,${UUID}){0,${FOLLOWED_PROCESSES_MAX - 1}})?$`), {
    message: `ids must be up to ${FOLLOWED_PROCESSES_MAX} process ids, separated by commas`,
  })
  @JSONSchema({
    description: `The processes to follow, comma-separated (up to ${FOLLOWED_PROCESSES_MAX}); without, only new ones`,
  })
  ids?: string;

  get idList(): string[] {
    return this.ids ? this.ids.split(',') : [];
  }
}

export const WEBHOOK_ENDPOINT_STATES = ['failing', 'disabled'] as const;

/** listWebhookEndpoints: the endpoints of the tenant's brokers. */
export class ListWebhookEndpointsQuery extends PageQuery {
  @OptionalBrokerNumber('broker')
  broker?: string;

  /** Only endpoints failing now (`failing`, disabled ones included) or disabled (`disabled`). */
  @IsOptional()
  @IsIn(WEBHOOK_ENDPOINT_STATES)
  state?: (typeof WEBHOOK_ENDPOINT_STATES)[number];
}

/** redeliverWebhookDeliveries: one abandoned delivery, or every abandoned one of the endpoint when left out. */
export class RedeliverRequest {
  @IsOptional()
  @Matches(/^[1-9][0-9]{0,17}$/, { message: 'delivery_id must be the id of a delivery of the endpoint' })
  delivery_id?: string;
}

export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;

/** listOutboxMessages: the customer messages of the tenant, newest first. */
export class ListOutboxMessagesQuery extends PageQuery {
  @IsOptional()
  @IsIn(OUTBOX_STATUSES)
  status?: (typeof OUTBOX_STATUSES)[number];

  @IsOptional()
  @IsIn(['email', 'sms'])
  channel?: 'email' | 'sms';
}
