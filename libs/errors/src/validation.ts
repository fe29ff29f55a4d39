import { ValidationPipe, type ValidationError } from '@nestjs/common';
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

/** The validation pipe every area uses: whitelisted DTOs, every failing field named, a 400 domain error. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => DomainError.validation(describeValidationErrors(errors)),
  });
}
