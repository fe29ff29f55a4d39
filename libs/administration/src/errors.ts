import { DomainError, ErrorCode } from '@broker/errors';

/** The administration's refusals, worded once. */
export const conflict = (message: string) => new DomainError(ErrorCode.Conflict, message);
export const notFound = (message: string) => DomainError.notFound(message);
export const invalid = (message: string) => DomainError.validation([message]);
