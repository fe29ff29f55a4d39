import { type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
import { DomainError } from './domain-error.js';

/** One line per failing field, with the dotted path of nested fields: `policyholder.birthdate must be ...`. */
export function describeValidationErrors(errors: ValidationError[], parentPath = ''): string[] {
  return errors.flatMap((error) => {
    const path = parentPath ? `${parentPath}.${error.property}` : error.property;
    const own = Object.entries(error.constraints ?? {}).map(([constraint, text]) =>
      constraint === 'whitelistValidation'
        ? `property ${path} should not exist`
        : withPath(path, error.property, text),
    );
    return [...own, ...describeValidationErrors(error.children ?? [], path)];
  });
}

function withPath(path: string, property: string, text: string): string {
  // class-validator starts its messages with the bare property name; name the full path instead.
  return text.startsWith(`${property} `) ? `${path}${text.slice(property.length)}` : `${path}: ${text}`;
}

/** Where in a JSON value a string holds a NUL character, which PostgreSQL cannot store in text. */
function pathOfNul(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'value' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const found = pathOfNul(child, path ? `${path}.${key}` : key);
    if (found) return found;
  }
  return undefined;
}

/**
 * Whitelisted DTOs, every failing field named, a 400 domain error; strings with NUL characters are refused
 * before they reach a DTO (they would fail in the database instead).
 */
class AreaValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const nul = pathOfNul(value, metadata.type === 'body' ? '' : (metadata.data ?? ''));
    if (nul) throw DomainError.validation([`${nul} must not contain NUL characters`]);
    return super.transform(value, metadata);
  }
}

/** The validation pipe every area uses. */
export function createValidationPipe(): ValidationPipe {
  return new AreaValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => DomainError.validation(describeValidationErrors(errors)),
  });
}
