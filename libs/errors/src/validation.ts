import {
  type ArgumentMetadata,
  type CanActivate,
  type ExecutionContext,
  Injectable,
  ValidationPipe,
  type ValidationError,
} from '@nestjs/common';
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

/** How deep a request's JSON may nest: far beyond any DTO, and well within what recursive checks can walk. */
export const MAX_JSON_DEPTH = 32;

/**
 * A character text cannot hold when stored: NUL, which PostgreSQL refuses in text and jsonb, or a UTF-16
 * surrogate without its partner, which is no character at all (it would be stored as U+FFFD, or refused).
 */
export const UNSTORABLE_CHARACTER = /\u0000|\p{Surrogate}/u;

/** Why a string cannot be stored as text. */
function textProblem(text: string): string | undefined {
  const found = UNSTORABLE_CHARACTER.exec(text)?.[0];
  if (found === undefined) return undefined;
  return found === '\u0000'
    ? 'must not contain NUL characters'
    : 'must not contain unpaired surrogates (it is not Unicode text)';
}

/** Whether `text` can be stored as sent: what the validation pipe checks of every string. */
export function isStorableText(text: string): boolean {
  return textProblem(text) === undefined;
}

/** Keys that name an object's machinery rather than a field: refused like any field a DTO does not have. */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The first string in a JSON value (in document order) that cannot be stored as text, or its first reserved key,
 * as a message naming its path. A value nested deeper than MAX_JSON_DEPTH is refused here, before
 * class-transformer's recursion would overflow the stack on it.
 */
export function jsonValueProblem(value: unknown, root = ''): string | undefined {
  const pending: { value: unknown; path: string; depth: number }[] = [{ value, path: root, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: current, path, depth } = next;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) return `${path || 'value'} ${problem}`;
    } else if (current !== null && typeof current === 'object') {
      if (depth === MAX_JSON_DEPTH)
        throw DomainError.validation([
          `${root || 'The request body'} is nested more than ${MAX_JSON_DEPTH} levels deep`,
        ]);
      const entries = Object.entries(current as Record<string, unknown>);
      const pathOf = (key: string) => (path ? `${path}.${key}` : key);
      // JSON.parse makes these own keys, which class-transformer passes over: the whitelist would never see them.
      const reserved = entries.find(([key]) => RESERVED_KEYS.has(key));
      if (reserved) return `property ${pathOf(reserved[0])} should not exist`;
      for (let index = entries.length - 1; index >= 0; index--)
        pending.push({ value: entries[index][1], path: pathOf(entries[index][0]), depth: depth + 1 });
    }
  }
  return undefined;
}

/**
 * Whitelisted DTOs, every failing field named, a 400 domain error; strings that cannot be stored as text are
 * refused before they reach a DTO (they would fail in the database instead).
 */
class AreaValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const problem = jsonValueProblem(value, metadata.type === 'body' ? '' : (metadata.data ?? ''));
    if (problem) throw DomainError.validation([problem]);
    return super.transform(value, metadata);
  }
}

/**
 * Refuses a path parameter that cannot be stored as text (a NUL, an unpaired surrogate) before any guard looks
 * it up (a guard runs before the pipe; PostgreSQL would fail on the NUL). Global: every route's `{tenant}`, `{ma}`, ids and the like.
 */
@Injectable()
export class NulFreePathGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const { params } = context.switchToHttp().getRequest<{ params?: Record<string, unknown> }>();
    const problem = jsonValueProblem(params ?? {}, '');
    if (problem) throw DomainError.validation([problem]);
    return true;
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
