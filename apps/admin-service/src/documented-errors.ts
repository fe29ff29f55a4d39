import { ApiResponse } from '@nestjs/swagger';

const ERROR_BODY = { $ref: '#/components/schemas/ApiErrorView' };

/** A 409 of a create: the key is taken. */
export const ApiConflict = (description: string) =>
  ApiResponse({ status: 409, description, schema: ERROR_BODY });
