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
 * Where in a JSON value a string holds a NUL character, which PostgreSQL cannot store in text (the first in
 * document order). A value nested deeper than MAX_JSON_DEPTH is refused here, before class-transformer's
 * recursion would overflow the stack on it.
 */
function pathOfNul(value: unknown, root: string): string | undefined {
  const pending: { value: unknown; path: string; depth: number }[] = [{ value, path: root, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: current, path, depth } = next;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return path || 'value';
    } else if (current !== null && typeof current === 'object') {
      if (depth === MAX_JSON_DEPTH)
        throw DomainError.validation([
          `${root || 'The request body'} is nested more than ${MAX_JSON_DEPTH} levels deep`,
        ]);
      const children = Object.entries(current as Record<string, unknown>).map(([key, child]) => ({
        value: child,
        path: path ? `${path}.${key}` : key,
        depth: depth + 1,
      }));
      pending.push(...children.reverse());
    }
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

/**
 * Refuses a path parameter with a NUL character before any guard looks it up (a guard runs before the pipe;
 * PostgreSQL would fail on the NUL). Global: every route's `{tenant}`, `{ma}`, ids and the like.
 */
@Injectable()
export class NulFreePathGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const { params } = context.switchToHttp().getRequest<{ params?: Record<string, unknown> }>();
    const nul = pathOfNul(params ?? {}, '');
    if (nul) throw DomainError.validation([`${nul} must not contain NUL characters`]);
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
