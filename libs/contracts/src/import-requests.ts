import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

/** The text fields of POST /api/v1/import (multipart/form-data); the file is the `file` part. */
export class StartImportForm {
  /** Company ids (VU numbers), sent as companies[0], companies[1], ... */
  @IsOptional()
  @IsArray({ message: 'companies must be sent as companies[0], companies[1], ...' })
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Matches(/^[A-Za-z0-9]{1,10}$/, { each: true, message: 'companies must hold company ids (VU numbers)' })
  companies?: string[];

  /** Number of the broker to import for: the caller's own or one below it; empty for the caller's own. */
  @IsOptional()
  @IsString()
  @MaxLength(32)
  broker?: string;
}

export const IMPORT_LIST_DEFAULT_LIMIT = 100;
export const IMPORT_LIST_MAX_LIMIT = 1000;

/** Paging of GET /api/v1/list. */
export class ListImportsQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(IMPORT_LIST_MAX_LIMIT)
  limit: number = IMPORT_LIST_DEFAULT_LIMIT;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  offset: number = 0;
}

/** Beyond the spec: the query of POST /api/v1/import. */
export class StartImportQuery {
  /** `true`: read and check the file as an import would, and write nothing. */
  @IsOptional()
  @IsIn(['true', 'false'])
  dry_run?: 'true' | 'false';
}

/** Beyond the spec: the event types a webhook endpoint may ask for. */
export const WEBHOOK_EVENT_TYPES = ['import.status_changed', 'import.processed', 'import.failed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Beyond the spec: the body of POST /api/v1/webhooks. */
export class CreateWebhookEndpoint {
  /** Where deliveries go: https (outside development), a public host unless allowed by WEBHOOK_ALLOWED_HOSTS. */
  @IsString()
  @MaxLength(2000)
  url!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  event_types!: WebhookEventType[];
}
