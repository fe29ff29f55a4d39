import { ApiProperty } from '@nestjs/swagger';

/** The error body of areas A and B, as an OpenAPI schema. */
export class ApiErrorView {
  @ApiProperty({ description: 'Error name', example: 'ValidationFailed' })
  name!: string;

  @ApiProperty({
    description: 'What is wrong, every failing field named',
    example:
      'policyholder.birthdate is required and must be an integer number of seconds since 1970-01-01T00:00:00Z',
  })
  message!: string;

  @ApiProperty({ type: 'integer', description: 'Stable error code', example: 1000 })
  code!: number;

  @ApiProperty({ type: 'integer', description: 'HTTP status', example: 400 })
  status!: number;
}

/** The error answers of an area A or B document (OpenApiSettings.errors): ApiErrorView, 503 included. */
export function apiErrors(statuses: Record<number, string>) {
  return {
    schema: ApiErrorView.name,
    model: ApiErrorView,
    statuses: {
      ...statuses,
      503: 'Overloaded, or a service it depends on unreachable: try again after Retry-After seconds',
    },
  };
}
